/**
 * The house as drawn from the code: each area of `src/` one floor, each layer of the core one
 * folder, and imports only downwards, through each area's entry, with no cycle (type-only
 * imports included). Imports are read by TypeScript's own pre-processor.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { typescriptProgram } from '../helpers/typescript.ts';
import { ROOT } from '../helpers/shared.ts';

const SRC = join(ROOT, 'src');

/** Areas, lowest first: an area may import only areas of a lower rank. */
const AREA_RANK: Record<string, number> = {
  core: 0,
  // Who may call repkit's HTTP endpoints (the service and MCP's).
  access: 1,
  cache: 1,
  meta: 1,
  fetch: 2,
  server: 3,
  // The sitemap reader, on the fetch client; Crawlee reads its sitemaps through it.
  sitemaps: 3,
  crawlee: 4,
  // robots.txt measured at scale (repkit scan): captures read with the core, sites fetched.
  scan: 3,
  guards: 3,
  mcp: 4,
  // Browser code, served by the service as files (no import between them).
  tester: 3,
  cli: 5,
};

/** The core's layers, lowest first: a layer may import only lower ones (and itself). */
const CORE_LAYER: Record<string, number> = {
  'errors.ts': 0,
  'bounded-map.ts': 0,
  'shapes.ts': 0,
  text: 1,
  tokens: 2,
  agents: 2,
  edge: 2,
  match: 3,
  profiles: 4,
  tdmrep: 4,
  model: 5,
  answers: 6,
  lint: 6,
  'parse.ts': 7,
  // The doors: the package entries and the one for repkit's other areas.
  'index.ts': 8,
  'tokenizer-entry.ts': 8,
  'tdmrep-entry.ts': 8,
  'agents-entry.ts': 8,
  'internal.ts': 8,
};

/**
 * The fetch area's layers, lowest first, as the core's: `net/` (addresses, connections, HTTP,
 * redirects), `files/` (entries, the entry cache, parsed files), `answers/` (verdicts, usage,
 * diffs), then the client assembled from them at the root.
 */
const FETCH_LAYER: Record<string, number> = {
  'errors.ts': 0,
  net: 1,
  files: 2,
  answers: 3,
  'politeness.ts': 4,
  'options.ts': 5,
  'seam.ts': 6,
  'client.ts': 7,
  'admit-request.ts': 8,
  'index.ts': 9,
  'internal.ts': 9,
};

/** The areas whose folders are their layers, each with its ranking. */
const LAYERED: Record<string, Record<string, number>> = { core: CORE_LAYER, fetch: FETCH_LAYER };

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every file each source file imports (static, type-only, re-exports and dynamic `import()`). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const local = importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(dirname(file), name));
    graph.set(file, [...new Set(local)]);
  }
  return graph;
}

const graph = importGraph();
const name = (file: string) => relative(SRC, file);
const areaOf = (file: string) => name(file).split('/')[0]!;

/** The files of `src/` a package entry points at (`./cache/redis` → `cache/redis-entry.ts`). */
function packageEntries(): Set<string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, { import?: string } | string>;
    bin: Record<string, string>;
  };
  const built = [
    ...Object.values(pkg.exports).map((e) => (typeof e === 'string' ? e : e.import)),
    ...Object.values(pkg.bin),
  ];
  const entries = new Set<string>();
  for (const path of built) {
    const match = /^\.\/dist\/(.+)\.js$/.exec(path ?? '');
    if (match) entries.add(join(SRC, `${match[1]}.ts`));
  }
  return entries;
}

test('the graph is read: every area and core layer has files, and every import resolves', () => {
  for (const area of Object.keys(AREA_RANK)) {
    assert.ok(
      [...graph.keys()].some((f) => areaOf(f) === area),
      area,
    );
  }
  for (const layer of Object.keys(CORE_LAYER)) {
    assert.ok(existsSync(join(SRC, 'core', layer)), `core/${layer}`);
  }
  for (const [file, targets] of graph) {
    for (const target of targets) assert.ok(graph.has(target), `${name(file)} → ${name(target)}`);
  }
});

test('no import cycle, type-only imports included', () => {
  // Tarjan's strongly connected components: any component of two or more files is a cycle.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(name(w));
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  assert.deepEqual(cycles, []);
});

test('areas import only lower areas, and only through their entries', () => {
  const entries = packageEntries();
  // An area's doors: its package entries (`index.ts` and any other in package.json), and
  // `internal.ts`, what repkit's other areas use and users do not.
  const isEntry = (file: string) =>
    file.endsWith('/index.ts') || file.endsWith('/internal.ts') || entries.has(file);
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const from = areaOf(file);
    for (const target of targets) {
      const to = areaOf(target);
      if (to === from) continue;
      if (!(to in AREA_RANK) || !(from in AREA_RANK)) wrong.push(`${name(file)}: unknown area`);
      else if (AREA_RANK[to]! >= AREA_RANK[from]!)
        wrong.push(`${name(file)} → ${name(target)} (up)`);
      else if (!isEntry(target) || dirname(target) !== join(SRC, to)) {
        wrong.push(`${name(file)} → ${name(target)} (past the entry)`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

test('the core and fetch layers import only layers below them', () => {
  const layerOf = (file: string) => name(file).split('/')[1]!;
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const ranks = LAYERED[areaOf(file)];
    if (!ranks) continue;
    const from = layerOf(file);
    for (const target of targets) {
      if (areaOf(target) !== areaOf(file)) continue;
      const to = layerOf(target);
      if (to === from) continue;
      const rank = (layer: string) => ranks[layer] ?? Number.NaN;
      if (!(rank(to) < rank(from))) wrong.push(`${name(file)} → ${name(target)}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('a layered area keeps at most 8 files at its root; the rest are in its layers', () => {
  const rootFiles = readdirSync(join(SRC, 'fetch')).filter((n) => n.endsWith('.ts'));
  assert.ok(rootFiles.length <= 8, `fetch/ holds ${rootFiles.length}: ${rootFiles.join(', ')}`);
  for (const [area, ranks] of Object.entries(LAYERED)) {
    const unranked = readdirSync(join(SRC, area)).filter((n) => !(n in ranks));
    assert.deepEqual(unranked, [], `${area}: files or folders with no rank`);
  }
});

/** Names that mean the same in every area: its doors, its errors, how it reads its options. */
const SHARED_NAMES = new Set(['index.ts', 'internal.ts', 'errors.ts', 'options.ts']);

test("no file has the name of another area's file unless they mean the same thing", () => {
  const byName = new Map<string, Set<string>>();
  for (const file of graph.keys()) {
    // The CLI's commands are named by the commands, as users type them.
    if (name(file).startsWith('cli/commands/')) continue;
    const base = name(file).split('/').at(-1)!;
    if (SHARED_NAMES.has(base)) continue;
    byName.set(base, (byName.get(base) ?? new Set()).add(areaOf(file)));
  }
  const clashes = [...byName]
    .filter(([, areas]) => areas.size > 1)
    .map(([n, a]) => `${n}: ${[...a].join(', ')}`);
  assert.deepEqual(clashes, []);
});

/** The names a file exports (`export { a, type B } from ...` and declarations). */
function exportedNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause) {
      if (ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) names.push(element.name.text);
      }
    } else if (
      ts.canHaveModifiers(statement) &&
      ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      const named = statement as ts.Statement & { name?: ts.Identifier };
      if (named.name) names.push(named.name.text);
      if (ts.isVariableStatement(statement)) {
        for (const d of statement.declarationList.declarations) {
          if (ts.isIdentifier(d.name)) names.push(d.name.text);
        }
      }
    }
  }
  return names;
}

/** Per `internal.ts` door, the names other areas import through it. */
function doorUses(): Map<string, Set<string>> {
  const uses = new Map<string, Set<string>>();
  for (const file of graph.keys()) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier.text);
      if (!target.endsWith('/internal.ts') || areaOf(target) === areaOf(file)) continue;
      const names = uses.get(target) ?? new Set<string>();
      uses.set(target, names);
      const bindings = ts.isImportDeclaration(statement)
        ? statement.importClause?.namedBindings
        : statement.exportClause;
      if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) {
        for (const element of bindings.elements) {
          names.add((element.propertyName ?? element.name).text);
        }
      }
    }
  }
  return uses;
}

/** Most names the widest doors may hold: what siblings need, not a second public surface. */
const MAX_DOOR_NAMES: Record<string, number> = { core: 16, fetch: 15 };

test('each internal.ts door holds only names another area imports (core at most 16, fetch 15)', () => {
  const uses = doorUses();
  const doors = [...graph.keys()].filter((f) => f.endsWith('/internal.ts'));
  assert.ok(doors.length >= 4, 'the doors are found');
  const unused: string[] = [];
  for (const door of doors) {
    const names = exportedNames(door);
    const used = uses.get(door) ?? new Set<string>();
    for (const exported of names)
      if (!used.has(exported)) unused.push(`${name(door)}: ${exported}`);
    const max = MAX_DOOR_NAMES[areaOf(door)];
    if (max !== undefined) {
      assert.ok(names.length <= max, `${name(door)} holds ${names.length} names (at most ${max})`);
    }
  }
  assert.deepEqual(unused, []);
});

/** A program over the package's public entries, for what their signatures say. */
function publicProgram(): { checker: ts.TypeChecker; modules: ts.Symbol[] } {
  const files = [...packageEntries()].filter((f) => f.endsWith('.ts') && !f.includes('/cli/'));
  const program = typescriptProgram(files);
  const checker = program.getTypeChecker();
  const modules = files.map((f) => checker.getSymbolAtLocation(program.getSourceFile(f)!)!);
  return { checker, modules };
}

/** Most public members of `RobotsClient`: what users call; the rest go through its seam. */
const MAX_CLIENT_MEMBERS = 14;

test('RobotsClient has at most 14 public members', () => {
  const source = readFileSync(join(SRC, 'fetch/client.ts'), 'utf8');
  const file = ts.createSourceFile('client.ts', source, ts.ScriptTarget.Latest);
  const client = file.statements.find(
    (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === 'RobotsClient',
  );
  assert.ok(client, 'RobotsClient is found');
  const isPublic = (member: ts.ClassElement): boolean =>
    !ts.isConstructorDeclaration(member) &&
    !ts.isClassStaticBlockDeclaration(member) &&
    member.name !== undefined &&
    !ts.isPrivateIdentifier(member.name) &&
    !(ts.getModifiers(member as ts.HasModifiers) ?? []).some(
      (m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword,
    );
  const members = new Set(client.members.filter(isPublic).map((m) => m.name!.getText(file)));
  assert.ok(members.has('check') && members.has('close'), 'members are read');
  assert.ok(
    members.size <= MAX_CLIENT_MEMBERS,
    `RobotsClient has ${members.size} public members: ${[...members].join(', ')}`,
  );
});

test('no public signature has an optional parameter before another', () => {
  const { checker, modules } = publicProgram();
  const wrong: string[] = [];
  const judge = (where: string, signature: ts.Signature): void => {
    const params = signature.getParameters().map((p) => p.valueDeclaration);
    params.forEach((param, i) => {
      if (!param || !ts.isParameter(param) || i === params.length - 1) return;
      const next = params[i + 1];
      if (next && ts.isParameter(next) && next.dotDotDotToken) return;
      if (param.questionToken || param.initializer) wrong.push(`${where}(${param.name.getText()})`);
    });
  };
  let judged = 0;
  for (const module of modules) {
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (!(symbol.flags & ts.SymbolFlags.Value) || !symbol.valueDeclaration) continue;
      const type = checker.getTypeOfSymbolAtLocation(symbol, symbol.valueDeclaration);
      for (const signature of type.getCallSignatures()) {
        judge(exported.name, signature);
        judged++;
      }
      for (const signature of type.getConstructSignatures()) {
        judge(`new ${exported.name}`, signature);
        judged++;
        for (const member of checker.getPropertiesOfType(signature.getReturnType())) {
          const decl = member.valueDeclaration;
          if (
            !decl ||
            ts.getCombinedModifierFlags(decl) & ts.ModifierFlags.NonPublicAccessibilityModifier
          )
            continue;
          const memberType = checker.getTypeOfSymbolAtLocation(member, decl);
          for (const s of memberType.getCallSignatures()) {
            judge(`${exported.name}.${member.name}`, s);
            judged++;
          }
        }
      }
    }
  }
  assert.ok(judged > 50, `signatures are read (${judged})`);
  assert.deepEqual(wrong, []);
});

/** Most lines a function may take: past it, the logic wants named parts a reader can find. */
const MAX_FUNCTION_LINES = 80;

test('no function is longer than 80 lines', () => {
  const long: string[] = [];
  for (const file of graph.keys()) {
    const source = ts.createSourceFile(
      file,
      readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.end).line;
        if (last - first + 1 > MAX_FUNCTION_LINES) {
          long.push(`${name(file)}:${first + 1} (${last - first + 1} lines)`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  assert.deepEqual(long, []);
});

/** Every test file's text, for what the tests call. */
function testSources(): string {
  const dir = join(ROOT, 'test');
  const files = (d: string): string[] =>
    readdirSync(d).flatMap((n) => {
      const path = join(d, n);
      return statSync(path).isDirectory() ? files(path) : /\.ts$/.test(n) ? [path] : [];
    });
  return files(dir)
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
}

test('each command is a run<Command> function, and commands, routes and MCP tools are tested directly', () => {
  const tests = testSources();
  const called = (fn: string) => new RegExp(`\\b${fn}\\(`).test(tests);
  const missing: string[] = [];
  const commands = readdirSync(join(SRC, 'cli/commands')).filter((n) => n.endsWith('.ts'));
  assert.ok(commands.length >= 12, 'the commands are found');
  for (const file of commands) {
    const runs = exportedNames(join(SRC, 'cli/commands', file)).filter((n) => /^run[A-Z]/.test(n));
    if (runs.length === 0) missing.push(`cli/commands/${file}: no run<Command> function`);
    for (const run of runs) if (!called(run)) missing.push(`${run} (cli/commands/${file})`);
  }
  // The handlers of the fetching routes and the MCP tools: functions of their context.
  const handlers: Record<string, string[]> = {
    'server/routes/checks.ts': ['usageAnswer', 'checkOne', 'checkMany', 'robotsAnswer'],
    'mcp/tools.ts': ['checkUrl', 'usageOf', 'lintRobotsTxt', 'aiCrawlers'],
  };
  for (const [file, names] of Object.entries(handlers)) {
    const exported = exportedNames(join(SRC, file));
    for (const handler of names) {
      if (!exported.includes(handler)) missing.push(`${handler}: not exported by ${file}`);
      else if (!called(handler)) missing.push(`${handler} (${file})`);
    }
  }
  assert.deepEqual(missing, []);
});

test('no file stands beside a folder of the same name', () => {
  const dirs = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => {
      const path = join(dir, n);
      return statSync(path).isDirectory() ? [path, ...dirs(path)] : [];
    });
  const clashes = [SRC, ...dirs(SRC)].filter((d) => existsSync(`${d}.ts`)).map(name);
  assert.deepEqual(clashes, []);
});
