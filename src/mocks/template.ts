import Handlebars from 'handlebars';

/** What a template sees of the request. */
export type TemplateInput = {
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  /** Lower-cased names, as node gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, or its text when it is not JSON, or undefined when there is none. */
  body: unknown;
  method: string;
  path: string;
};

/** A template that failed to compile (a 400 at save) or to render (a 500), naming the record field. */
export class TemplateError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`template error in ${field}: ${message}`);
  }
}

export type Render = (input: TemplateInput) => string;

// Our own environment: only the helpers registered here exist, whatever else runs in the process.
const env = Handlebars.create();

function compileString(source: string, field: string): Render {
  let template: HandlebarsTemplateDelegate;
  try {
    // Parsing now is what makes a syntax error a 400 at save rather than a 500 per request.
    Handlebars.parse(source);
    // JSON and text bodies, not HTML: nothing is escaped.
    template = env.compile(source, { noEscape: true, strict: false });
  } catch (err) {
    throw new TemplateError(field, (err as Error).message);
  }
  return (input) => {
    try {
      return template(input);
    } catch (err) {
      throw new TemplateError(field, (err as Error).message);
    }
  };
}

/** A text template (a `body` or a header value). */
export function compileText(source: string, field: string): Render {
  if (!source.includes('{{')) return () => source;
  return compileString(source, field);
}

/**
 * Every string in a serialized JSON value (keys left alone) becomes a template; the result renders
 * the value back to JSON text with each string replaced by its rendering.
 */
export function compileJson(json: string, field: string): Render {
  if (!json.includes('{{')) return () => json;
  const build = compileValue(JSON.parse(json) as unknown, field);
  return (input) => JSON.stringify(build(input));
}

type Build = (input: TemplateInput) => unknown;

function compileValue(value: unknown, field: string): Build {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return () => value;
    return compileString(value, field);
  }
  if (Array.isArray(value)) {
    const items = value.map((item, i) => compileValue(item, `${field}[${i}]`));
    return (input) => items.map((item) => item(input));
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => [key, compileValue(item, `${field}.${key}`)] as const);
    return (input) => {
      const out: Record<string, unknown> = {};
      // defineProperty: a "__proto__" key from JSON stays a key.
      for (const [key, item] of entries) Object.defineProperty(out, key, { value: item(input), enumerable: true, writable: true, configurable: true });
      return out;
    };
  }
  return () => value;
}
