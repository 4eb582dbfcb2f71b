/** The module file (wasm-lane-module.ts) that the WAT text `wat` compiles to. */
export function laneModuleFile(wat: string): Promise<string>;
