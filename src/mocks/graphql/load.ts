import { createRequire } from 'node:module';
import type * as Graphql from 'graphql';
import type { GraphQLError } from 'graphql';

let loaded: typeof Graphql | undefined;

/**
 * The `graphql` package, loaded with the first GraphQL schema saved or served: a server without
 * GraphQL endpoints never reads its hundred-odd modules (bench/README.md, start-up). Required
 * rather than imported so a save can check its schema synchronously, as every other field is
 * checked; one CommonJS instance for the whole process, so its classes' instanceof checks hold.
 */
export function graphql(): typeof Graphql {
  return (loaded ??= createRequire(import.meta.url)('graphql') as typeof Graphql);
}

type ValidateSdl = (document: Graphql.DocumentNode) => readonly GraphQLError[];
let validateSdl: ValidateSdl | undefined;

/**
 * graphql's own SDL rules as errors with their places. buildASTSchema runs the same rules but
 * throws their messages joined in a plain Error, without locations; v16 exports the function only
 * from its module (graphql-js src/validation/validate.ts, marked internal).
 */
export function sdlErrors(document: Graphql.DocumentNode): readonly GraphQLError[] {
  validateSdl ??= (createRequire(import.meta.url)('graphql/validation/validate.js') as { validateSDL: ValidateSdl }).validateSDL;
  return validateSdl(document);
}
