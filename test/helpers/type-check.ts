import ts from 'typescript';

/**
 * Type-checks `files` together as a strict ES2022 module program (bundler resolution, no ambient
 * `@types`), with `extra` options on top; returns the diagnostics as text, empty when it compiles.
 */
export function typeCheckFiles(files: string[], extra: ts.CompilerOptions = {}): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
    ...extra,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}
