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
