import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenapiError } from '../../../src/mocks/sources/openapi/load-document.js';
import { openapiRecords } from '../../../src/mocks/sources/openapi/to-records.js';
import { MAX_SOURCE_FILE_BYTES } from '../../../src/mocks/sources/read-source.js';
import { tempDir } from '../../helpers/temp.js';

const SECRET = 'root:x:0:0:the secret';

/**
 * A document whose one operation answers text/plain of the schema `schema` (a YAML flow value). Not an
 * `example`: a `$ref` key in example data is data (openapi-load.test.ts), never read.
 */
const answering = (schema: string) =>
  'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths:\n  /a:\n    get:\n      responses:\n' +
  `        '200':\n          description: ok\n          content: { text/plain: { schema: ${schema} } }\n`;

describe("OpenAPI $refs go through the Files gate: only files in the document's folder are read", () => {
  let temp: ReturnType<typeof tempDir>;
  let api: string;
  let outside: string;
  beforeEach(() => {
    temp = tempDir();
    // <temp>/secret.txt is beside the document's folder <temp>/api, not in it.
    api = join(temp.dir, 'api');
    mkdirSync(api);
    outside = join(temp.dir, 'secret.txt');
    writeFileSync(outside, SECRET);
  });
  afterEach(() => temp.cleanup());

  /** The OpenapiError for the document `text` saved as api/api.yaml; fails if it was accepted. */
  async function refusal(text: string): Promise<string> {
    const file = join(api, 'api.yaml');
    writeFileSync(file, text);
    let records: unknown;
    try {
      records = await openapiRecords(file, text);
    } catch (err) {
      expect(err).to.be.instanceOf(OpenapiError);
      expect((err as Error).message).to.not.contain('the secret');
      return (err as Error).message;
    }
    throw new Error(`the document was accepted: ${JSON.stringify(records)}`);
  }
  const refused = (path: string, why: string) =>
    `${join(api, 'api.yaml')} cannot be read: $ref to ${path}: ${why}`;
  const OUT = "it is outside the document's folder";
  const LINK = "it leads outside the document's folder through a link";

  it("refuses '../secret.txt'", async () => {
    expect(await refusal(answering("{ $ref: '../secret.txt' }"))).to.equal(refused(outside, OUT));
  });

  it('refuses an absolute path, and a file: URL, outside the folder', async () => {
    expect(await refusal(answering(`{ $ref: '${outside}' }`))).to.equal(refused(outside, OUT));
    expect(await refusal(answering(`{ $ref: 'file://${outside}' }`))).to.contain(
      'is refused: only $refs to files beside it are read',
    );
  });

  it('refuses a link in the folder that leads out, to a file or through a folder', async () => {
    symlinkSync(outside, join(api, 'link.txt'));
    expect(await refusal(answering("{ $ref: 'link.txt' }"))).to.equal(refused(join(api, 'link.txt'), LINK));
    symlinkSync(temp.dir, join(api, 'up'));
    expect(await refusal(answering("{ $ref: 'up/secret.txt' }"))).to.equal(refused(join(api, 'up/secret.txt'), LINK));
  });

  it('refuses a $ref in a referenced file that leads out: relative, absolute or a file: URL', async () => {
    mkdirSync(join(api, 'schemas'));
    const nested = (ref: string) => writeFileSync(join(api, 'schemas', 'pet.yaml'), `text: { $ref: '${ref}' }\n`);
    const doc = answering("{ $ref: 'schemas/pet.yaml#/text' }");
    for (const ref of ['../../secret.txt', outside, `file://${outside}`]) {
      nested(ref);
      expect(await refusal(doc), ref).to.equal(refused(outside, OUT));
    }
  });

  it('refuses a folder, a FIFO and a file past the size cap, unread', async () => {
    mkdirSync(join(api, 'folder'));
    expect(await refusal(answering("{ $ref: 'folder' }"))).to.equal(refused(join(api, 'folder'), 'not a regular file'));
    execFileSync('mkfifo', [join(api, 'fifo')]);
    expect(await refusal(answering("{ $ref: 'fifo' }"))).to.equal(refused(join(api, 'fifo'), 'not a regular file'));
    const big = join(api, 'big.txt');
    writeFileSync(big, '');
    truncateSync(big, MAX_SOURCE_FILE_BYTES + 1);
    expect(await refusal(answering("{ $ref: 'big.txt' }"))).to.equal(
      refused(big, `the file has ${MAX_SOURCE_FILE_BYTES + 1} bytes; at most ${MAX_SOURCE_FILE_BYTES} are read`),
    );
  });

  it('still reads files in the folder, through links and `..` that stay inside', async () => {
    mkdirSync(join(api, 'schemas'));
    writeFileSync(join(api, 'schemas', 'pet.yaml'), "text: { $ref: '../words.yaml' }\n");
    writeFileSync(join(api, 'words.yaml'), '{ type: string, example: hello }');
    symlinkSync(join(api, 'schemas'), join(api, 'linked'));
    const text = answering("{ $ref: 'linked/../schemas/pet.yaml#/text' }");
    const { records } = await openapiRecords(join(api, 'api.yaml'), text);
    expect(records[0]!.body).to.equal('hello');
  });
});
