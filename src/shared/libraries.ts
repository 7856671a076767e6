/**
 * The editor's "Add library" list: common libraries as tags with exact versions from jsDelivr, so a bin
 * keeps working as it was written (a range or "latest" would change under it).
 */
export type Library = { id: string; name: string; tags: string[] };

const CDN = 'https://cdn.jsdelivr.net/npm/';
const script = (path: string) => `<script src="${CDN}${path}"></script>`;
const stylesheet = (path: string) => `<link rel="stylesheet" href="${CDN}${path}">`;

export const LIBRARIES: Library[] = [
  { id: 'jquery', name: 'jQuery 3.7.1', tags: [script('jquery@3.7.1/dist/jquery.min.js')] },
  {
    id: 'react',
    name: 'React 18.3.1 + ReactDOM',
    // 18 is the last React with UMD builds: the globals `React` and `ReactDOM` that a JSX bin uses.
    tags: [
      script('react@18.3.1/umd/react.production.min.js'),
      script('react-dom@18.3.1/umd/react-dom.production.min.js'),
    ],
  },
  { id: 'vue', name: 'Vue 3.5.45', tags: [script('vue@3.5.45/dist/vue.global.prod.js')] },
  { id: 'lodash', name: 'Lodash 4.17.21', tags: [script('lodash@4.17.21/lodash.min.js')] },
  {
    id: 'bootstrap',
    name: 'Bootstrap 5.3.9',
    tags: [stylesheet('bootstrap@5.3.9/dist/css/bootstrap.min.css'), script('bootstrap@5.3.9/dist/js/bootstrap.bundle.min.js')],
  },
  { id: 'tailwind', name: 'Tailwind CSS 4.3.4 (browser build)', tags: [script('@tailwindcss/browser@4.3.4/dist/index.global.js')] },
  { id: 'd3', name: 'D3 7.9.2', tags: [script('d3@7.9.2/dist/d3.min.js')] },
  // r149 is the last three.js with a UMD build (`THREE`) that loads without a deprecation warning.
  { id: 'three', name: 'three.js r149', tags: [script('three@0.149.0/build/three.min.js')] },
  { id: 'dayjs', name: 'Day.js 1.11.23', tags: [script('dayjs@1.11.23/dayjs.min.js')] },
  { id: 'moment', name: 'Moment 2.30.1', tags: [script('moment@2.30.1/min/moment.min.js')] },
];

/** Where a tag points: what "already there" is judged by, whatever its attributes' order or quotes. */
function urlOf(tag: string): string {
  return /(?:src|href)="([^"]+)"/.exec(tag)![1]!;
}

/**
 * The text to insert into `html` for `library` and where: before `</head>` (indented as the line before it)
 * if there is one, else at the top. Tags whose URL is already in the HTML are left out; `undefined` when
 * all are.
 */
export function libraryInsertion(html: string, library: Library): { at: number; text: string } | undefined {
  const missing = library.tags.filter((tag) => !html.includes(urlOf(tag)));
  if (missing.length === 0) return undefined;
  const head = /<\/head\s*>/i.exec(html);
  if (!head) return { at: 0, text: missing.map((tag) => tag + '\n').join('') };
  const lineStart = html.lastIndexOf('\n', head.index - 1) + 1;
  const before = html.slice(lineStart, head.index);
  // `</head>` alone on its line: new lines go above it, indented one step more than it.
  if (/^[ \t]*$/.test(before)) {
    const indent = before + '  ';
    return { at: lineStart, text: missing.map((tag) => indent + tag + '\n').join('') };
  }
  return { at: head.index, text: missing.join('') };
}
