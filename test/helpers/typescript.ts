import ts from 'typescript';

/** A TypeScript program over `files`, as the repository's sources are compiled (no emit). */
export function typescriptProgram(files: readonly string[]): ts.Program {
  return ts.createProgram([...files], {
    allowImportingTsExtensions: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: ['node'],
  });
}

/** How a user's project compiles against the published package (`repkit/...` as it resolves). */
export const CONSUMER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
};
