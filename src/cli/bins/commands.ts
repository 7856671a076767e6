import type { Command } from 'commander';
import { withClientFlags } from '../common/client-flags.js';
import type { PullFlags } from './pull.js';
import type { SaveFlags } from './save.js';

/** Declares `save`, `pull`, `clone` and `template`; their code loads only when they run. */
export function registerBinCommands(program: Command): void {
  withClientFlags(program.command('save'), 'bin')
    .description('save files as a new bin, or as a new revision of one with --bin, and print its URL')
    .argument('[file]', 'an .html, .js or .css file (- for standard input as html); same-named siblings are taken too')
    .option('--html <file>', 'the html panel (- for standard input)')
    .option('--js <file>', 'the javascript panel (- for standard input)')
    .option('--css <file>', 'the css panel (- for standard input)')
    .option('--bin <id>', 'save a new revision of this bin (a new name is claimed)')
    .option('--with-mocks', 'keep the endpoints the code calls (/endpoint/…) with the revision; from FILE.mocks.json beside the file when there is one, created on the server where missing (needs snippetkit serve)')
    .addHelpText(
      'after',
      `
Examples:
  $ snippetkit save demo.html                 # takes demo.js and demo.css too, if they exist
  $ snippetkit save demo.html --bin rovoqe    # revision 2 of rovoqe
  $ snippetkit save --js app.js --css none.css
  $ echo '<h1>hi</h1>' | snippetkit save -
  $ snippetkit save demo.html --with-mocks    # with the endpoints its code calls, e.g. fetch('/endpoint/users')
  $ snippetkit save out/rovoqe.html --with-mocks --server http://other:3000
                                              # rovoqe.mocks.json too: endpoints missing there are created;
                                              # one of the same name and another shape stops the save
Prints e.g. http://localhost:3000/rovoqe/1`,
    )
    .action(async (file: string | undefined, flags: SaveFlags, command: Command) => {
      const { save } = await import('./save.js');
      await save(file, flags, command);
    });

  withClientFlags(program.command('pull'), 'bin')
    .description('write a bin\'s panels to BIN.html, BIN.js and BIN.css (only the panels that are not empty), and its mocks with --with-mocks')
    .argument('<bin>', 'BIN, BIN/REV, or a bin URL such as http://localhost:3000/rovoqe/2')
    .option('-o, --out <dir>', 'folder to write into (created if needed)', '.')
    .option('-f, --force', 'overwrite files that exist')
    .option('--stdout <panel>', 'print one panel (html, css or js) instead of writing files')
    .option('--with-mocks', 'also write BIN.mocks.json: the endpoints the revision was saved with (save --with-mocks), as mock export writes them')
    .addHelpText(
      'after',
      `
Examples:
  $ snippetkit pull rovoqe
  $ snippetkit pull rovoqe/1 --out ./snippets --force
  $ snippetkit pull rovoqe --stdout js > app.js
  $ snippetkit pull rovoqe/2 --with-mocks --out sketch
                     # sketch/rovoqe.html, .js, .css and rovoqe.mocks.json; then, on another snippetkit:
  $ snippetkit save sketch/rovoqe.html --with-mocks --server http://other:3000`,
    )
    .action(async (bin: string, flags: PullFlags, command: Command) => {
      const { pull } = await import('./pull.js');
      await pull(bin, flags, command);
    });

  withClientFlags(program.command('clone'), 'bin')
    .description('make a new bin from a revision of another (its panels and preprocessors) and print its URLs')
    .argument('<bin>', 'BIN, BIN/REV, or a bin URL such as http://localhost:3000/rovoqe/2')
    .addHelpText(
      'after',
      `
Examples:
  $ snippetkit clone rovoqe        # the latest revision
  $ snippetkit clone rovoqe/2
Prints the new bin's output and editor URLs, e.g.
  http://localhost:3000/kavune/1
  http://localhost:3000/kavune/1/edit`,
    )
    .action(async (bin: string, _flags: object, command: Command) => {
      const { clone } = await import('./clone.js');
      await clone(bin, command);
    });

  const template = program.command('template').description('set or reset the template new bins start from');
  withClientFlags(template.command('save'), 'bin')
    .description('make files the template of new bins (the editor\'s Save as template) and print where New starts')
    .argument('[file]', 'an .html, .js or .css file (- for standard input as html); same-named siblings are taken too')
    .option('--html <file>', 'the html panel (- for standard input)')
    .option('--js <file>', 'the javascript panel (- for standard input)')
    .option('--css <file>', 'the css panel (- for standard input)')
    .addHelpText('after', '\nExamples:\n  $ snippetkit template save starter.html   # takes starter.js and starter.css too\n  $ snippetkit template save --html page.html --css base.css')
    .action(async (file: string | undefined, flags: SaveFlags, command: Command) => {
      const { saveTemplate } = await import('./template.js');
      await saveTemplate(file, flags, command);
    });
  withClientFlags(template.command('reset'), 'bin')
    .description('start new bins from the built-in starter again')
    .action(async (_flags: object, command: Command) => {
      const { resetTemplate } = await import('./template.js');
      await resetTemplate(command);
    });
}
