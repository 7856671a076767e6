import type { Library } from './libraries.js';

/*
 * The editor's "Add library" list, as data. How it was chosen: the front-end libraries people most often
 * pull into a JS Bin or CodePen page (frameworks, utilities, charts, animation, games, CSS kits), keeping
 * only those published with a build a plain <script> or <link> can load (UMD, a global, or CSS); ES-module-
 * only packages (Lit, Svelte, zod) are left out, since a script tag cannot use them. Every URL names an exact
 * version on jsDelivr's npm mirror, a release known to carry that file, so a bin keeps loading what it was
 * written against; a newer version is a deliberate edit here, not a surprise. Where a library needs another
 * (Backbone, Tippy) its tags bring both, in order.
 */
const CDN = 'https://cdn.jsdelivr.net/npm/';
const script = (path: string) => `<script src="${CDN}${path}"></script>`;
const deferred = (path: string) => `<script defer src="${CDN}${path}"></script>`;
const stylesheet = (path: string) => `<link rel="stylesheet" href="${CDN}${path}">`;

const lib = (id: string, name: string, keywords: string, ...tags: string[]): Library => ({ id, name, keywords, tags });

export const LIBRARIES: Library[] = [
  lib('jquery', 'jQuery 3.7.1', 'dom ajax $', script('jquery@3.7.1/dist/jquery.min.js')),
  // 18 is the last React with UMD builds: the globals `React` and `ReactDOM` that a JSX bin uses.
  lib('react', 'React 18.3.1 + ReactDOM', 'jsx components ui framework',
    script('react@18.3.1/umd/react.production.min.js'), script('react-dom@18.3.1/umd/react-dom.production.min.js')),
  lib('vue', 'Vue 3.5.45', 'framework components reactive', script('vue@3.5.45/dist/vue.global.prod.js')),
  lib('preact', 'Preact 10.19.3 + hooks', 'react jsx small framework',
    script('preact@10.19.3/dist/preact.umd.js'), script('preact@10.19.3/hooks/dist/hooks.umd.js')),
  lib('angularjs', 'AngularJS 1.8.3', 'angular framework legacy', script('angular@1.8.3/angular.min.js')),
  lib('alpine', 'Alpine.js 3.14.1', 'alpinejs framework reactive attributes', deferred('alpinejs@3.14.1/dist/cdn.min.js')),
  lib('htmx', 'htmx 2.0.4', 'ajax hypermedia attributes', script('htmx.org@2.0.4/dist/htmx.min.js')),
  lib('knockout', 'Knockout 3.5.1', 'mvvm bindings observable', script('knockout@3.5.1/build/output/knockout-latest.js')),
  lib('backbone', 'Backbone 1.6.0 + Underscore', 'mvc models views',
    script('underscore@1.13.6/underscore-umd-min.js'), script('backbone@1.6.0/backbone-min.js')),
  lib('mithril', 'Mithril 2.2.2', 'framework virtual dom router', script('mithril@2.2.2/mithril.min.js')),
  lib('lodash', 'Lodash 4.17.21', 'utility _ arrays objects', script('lodash@4.17.21/lodash.min.js')),
  lib('underscore', 'Underscore 1.13.6', 'utility _ functional', script('underscore@1.13.6/underscore-umd-min.js')),
  lib('ramda', 'Ramda 0.29.1', 'functional utility curry', script('ramda@0.29.1/dist/ramda.min.js')),
  lib('immutable', 'Immutable.js 4.3.4', 'persistent data collections', script('immutable@4.3.4/dist/immutable.min.js')),
  lib('rxjs', 'RxJS 7.8.1', 'reactive observables streams', script('rxjs@7.8.1/dist/bundles/rxjs.umd.min.js')),
  lib('redux', 'Redux 4.2.1', 'state store', script('redux@4.2.1/dist/redux.min.js')),
  lib('mobx', 'MobX 6.12.0', 'state reactive observable', script('mobx@6.12.0/dist/mobx.umd.production.min.js')),
  lib('axios', 'axios 1.7.9', 'http ajax fetch request', script('axios@1.7.9/dist/axios.min.js')),
  lib('socketio', 'Socket.IO client 4.7.5', 'websocket realtime', script('socket.io-client@4.7.5/dist/socket.io.min.js')),
  lib('moment', 'Moment 2.30.1', 'date time format', script('moment@2.30.1/min/moment.min.js')),
  lib('dayjs', 'Day.js 1.11.23', 'date time format moment', script('dayjs@1.11.23/dayjs.min.js')),
  lib('datefns', 'date-fns 3.6.0', 'date time format', script('date-fns@3.6.0/cdn.min.js')),
  lib('luxon', 'Luxon 3.4.4', 'date time timezone', script('luxon@3.4.4/build/global/luxon.min.js')),
  lib('uuid', 'uuid 9.0.1', 'id random guid', script('uuid@9.0.1/dist/umd/uuid.min.js')),
  lib('validator', 'validator.js 13.11.0', 'validation strings email', script('validator@13.11.0/validator.min.js')),
  lib('fuse', 'Fuse.js 6.6.2', 'fuzzy search', script('fuse.js@6.6.2/dist/fuse.min.js')),
  lib('handlebars', 'Handlebars 4.7.8', 'templates mustache', script('handlebars@4.7.8/dist/handlebars.min.js')),
  lib('mustache', 'Mustache 4.2.0', 'templates logic-less', script('mustache@4.2.0/mustache.min.js')),
  lib('marked', 'marked 12.0.2', 'markdown parser', script('marked@12.0.2/marked.min.js')),
  lib('highlightjs', 'highlight.js 11.10.0', 'syntax highlighting code',
    stylesheet('@highlightjs/cdn-assets@11.10.0/styles/default.min.css'), script('@highlightjs/cdn-assets@11.10.0/highlight.min.js')),
  lib('katex', 'KaTeX 0.16.9', 'math tex formulas',
    stylesheet('katex@0.16.9/dist/katex.min.css'), script('katex@0.16.9/dist/katex.min.js')),
  lib('mermaid', 'Mermaid 10.9.1', 'diagrams charts flowchart', script('mermaid@10.9.1/dist/mermaid.min.js')),
  lib('chartjs', 'Chart.js 4.4.1', 'charts graphs canvas', script('chart.js@4.4.1/dist/chart.umd.js')),
  lib('d3', 'D3 7.9.2', 'charts data visualization svg', script('d3@7.9.2/dist/d3.min.js')),
  lib('echarts', 'Apache ECharts 5.5.0', 'charts graphs', script('echarts@5.5.0/dist/echarts.min.js')),
  lib('leaflet', 'Leaflet 1.9.4', 'maps', stylesheet('leaflet@1.9.4/dist/leaflet.css'), script('leaflet@1.9.4/dist/leaflet.js')),
  // r149 is the last three.js with a UMD build (`THREE`) that loads without a deprecation warning.
  lib('three', 'three.js r149', '3d webgl', script('three@0.149.0/build/three.min.js')),
  lib('p5', 'p5.js 1.9.4', 'creative coding canvas sketch processing', script('p5@1.9.4/lib/p5.min.js')),
  lib('phaser', 'Phaser 3.80.1', 'games 2d', script('phaser@3.80.1/dist/phaser.min.js')),
  lib('pixi', 'PixiJS 7.4.2', '2d webgl games rendering', script('pixi.js@7.4.2/dist/pixi.min.js')),
  lib('matter', 'Matter.js 0.19.0', 'physics 2d games', script('matter-js@0.19.0/build/matter.min.js')),
  lib('tone', 'Tone.js 14.7.77', 'audio music synth', script('tone@14.7.77/build/Tone.js')),
  lib('howler', 'howler.js 2.2.4', 'audio sound', script('howler@2.2.4/dist/howler.min.js')),
  lib('gsap', 'GSAP 3.12.5', 'animation tween greensock', script('gsap@3.12.5/dist/gsap.min.js')),
  lib('anime', 'anime.js 3.2.2', 'animation', script('animejs@3.2.2/lib/anime.min.js')),
  lib('lottie', 'Lottie 5.12.2', 'animation after effects', script('lottie-web@5.12.2/build/player/lottie.min.js')),
  lib('popper', 'Popper 2.11.8', 'tooltips positioning', script('@popperjs/core@2.11.8/dist/umd/popper.min.js')),
  lib('tippy', 'Tippy.js 6.3.7 + Popper', 'tooltips popovers',
    script('@popperjs/core@2.11.8/dist/umd/popper.min.js'), script('tippy.js@6.3.7/dist/tippy-bundle.umd.min.js')),
  lib('sortable', 'Sortable 1.15.2', 'drag drop lists reorder', script('sortablejs@1.15.2/Sortable.min.js')),
  lib('swiper', 'Swiper 11.0.5', 'slider carousel touch',
    stylesheet('swiper@11.0.5/swiper-bundle.min.css'), script('swiper@11.0.5/swiper-bundle.min.js')),
  lib('bootstrap', 'Bootstrap 5.3.9', 'css framework components grid',
    stylesheet('bootstrap@5.3.9/dist/css/bootstrap.min.css'), script('bootstrap@5.3.9/dist/js/bootstrap.bundle.min.js')),
  lib('tailwind', 'Tailwind CSS 4.3.4 (browser build)', 'css utility classes play cdn',
    script('@tailwindcss/browser@4.3.4/dist/index.global.js')),
  lib('bulma', 'Bulma 1.0.2', 'css framework', stylesheet('bulma@1.0.2/css/bulma.min.css')),
  lib('pico', 'Pico CSS 2.0.6', 'css classless minimal', stylesheet('@picocss/pico@2.0.6/css/pico.min.css')),
  lib('normalize', 'normalize.css 8.0.1', 'css reset', stylesheet('normalize.css@8.0.1/normalize.css')),
  lib('animatecss', 'Animate.css 4.1.1', 'css animation', stylesheet('animate.css@4.1.1/animate.min.css')),
  lib('fontawesome', 'Font Awesome Free 6.5.2', 'icons fonts', stylesheet('@fortawesome/fontawesome-free@6.5.2/css/all.min.css')),
  lib('bootstrapicons', 'Bootstrap Icons 1.11.3', 'icons fonts', stylesheet('bootstrap-icons@1.11.3/font/bootstrap-icons.min.css')),
];
