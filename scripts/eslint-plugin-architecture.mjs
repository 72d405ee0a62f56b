/**
 * Lint rules for the dependency rules of ARCHITECTURE.md: no import cycles, and an area (a server
 * module, a web feature) used by another only through its `index.ts`.
 *
 * Cycles are found on one import graph of the source trees, built once per lint run from each
 * file's import statements (TypeScript's pre-processor: type-only and lazy imports count too, as a
 * cycle of types still ties two files together). A file is reported on each import that leads back
 * to it. The graph is read from disk once per process: an editor's long-lived lint server sees
 * imports changed since it started after a restart; `eslint` on the command line always sees them.
 *
 * The folders are the rules' options (eslint.config.js names the repository's), so that a test can
 * point them at files of its own outside the source trees. Relative folders are read from the
 * repository's root.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const CONTRACT_ENTRY = path.join(ROOT, 'packages/contract/src/index.ts');
const folders = (list) => (list ?? []).map((folder) => path.resolve(ROOT, folder));

const sourceFiles = (trees) => {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name)) files.push(full);
    }
  };
  for (const tree of trees) walk(tree);
  return files;
};

/** The source file an import names, as the compilers find it (`.js` names the `.ts` source). */
export function resolveImport(specifier, importer) {
  if (specifier === '@inventory/contract') return CONTRACT_ENTRY;
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(importer), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/** Each file of a cycle, with the files of its cycle (its strongly connected component). */
function cyclesOf(graph) {
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycleOf = new Map();
  let next = 0;
  const visit = (file) => {
    order.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!order.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file), low.get(target)));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file), order.get(target)));
      }
    }
    if (low.get(file) !== order.get(file)) return;
    const members = new Set();
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      members.add(member);
    } while (member !== file);
    if (members.size > 1) for (const m of members) cycleOf.set(m, members);
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return cycleOf;
}

/** The import graph of each set of source trees linted in this process. */
const importGraphs = new Map();
function graph(trees) {
  const key = trees.join('\n');
  if (importGraphs.has(key)) return importGraphs.get(key);
  const edges = new Map();
  for (const file of sourceFiles(trees)) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    edges.set(
      file,
      importedFiles.map((i) => resolveImport(i.fileName, file)).filter((target) => target),
    );
  }
  const built = { edges, cycleOf: cyclesOf(edges) };
  importGraphs.set(key, built);
  return built;
}

/** The shortest way from `from` back to `to` inside one cycle, for the message. */
function pathWithin(edges, members, from, to) {
  const previous = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === to) break;
    for (const target of edges.get(file) ?? []) {
      if (members.has(target) && !previous.has(target)) {
        previous.set(target, file);
        queue.push(target);
      }
    }
  }
  const steps = [];
  for (let file = to; file; file = previous.get(file)) steps.unshift(file);
  return steps;
}

const relative = (file) => path.relative(ROOT, file);

/** Calls `check(node, specifier)` for every import, re-export and lazy import of a file. */
const onImports = (check) => {
  const withSource = (node) => {
    if (node.source && typeof node.source.value === 'string') check(node, node.source.value);
  };
  return {
    ImportDeclaration: withSource,
    ExportNamedDeclaration: withSource,
    ExportAllDeclaration: withSource,
    ImportExpression: withSource,
  };
};

const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid imports that lead back to the importing file.' },
    messages: { cycle: 'Import cycle: {{cycle}}.' },
    schema: [
      {
        type: 'object',
        properties: {
          // The folders whose files make up the import graph.
          sourceTrees: { type: 'array', items: { type: 'string' } },
        },
        required: ['sourceTrees'],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const file = context.physicalFilename;
    const { edges, cycleOf } = graph(folders(context.options[0]?.sourceTrees));
    const members = cycleOf.get(file);
    if (!members) return {};
    return onImports((node, specifier) => {
      const target = resolveImport(specifier, file);
      if (!target || !members.has(target)) return;
      const cycle = [file, ...pathWithin(edges, members, target, file)].map(relative);
      context.report({ node, messageId: 'cycle', data: { cycle: cycle.join(' → ') } });
    });
  },
};

/** The area folder a file belongs to, or null outside the areas. */
const areaOf = (areaParents, file) => {
  for (const parent of areaParents) {
    const rest = path.relative(parent, file);
    if (!rest.startsWith('..') && rest.includes(path.sep)) {
      return path.join(parent, rest.split(path.sep)[0]);
    }
  }
  return null;
};

const areaIndex = {
  meta: {
    type: 'problem',
    docs: { description: 'Use another area only through its index.ts (ARCHITECTURE.md).' },
    messages: {
      deep: '{{file}} belongs to the area {{area}}: import it through {{area}}/index.ts.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          // A server module or web feature: the folder right under one of these.
          areaParents: { type: 'array', items: { type: 'string' } },
        },
        required: ['areaParents'],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const file = context.physicalFilename;
    const areaParents = folders(context.options[0]?.areaParents);
    const own = areaOf(areaParents, file);
    if (!own) return {};
    return onImports((node, specifier) => {
      const target = resolveImport(specifier, file);
      const area = target && areaOf(areaParents, target);
      if (!area || area === own || /^index\.tsx?$/.test(path.relative(area, target))) return;
      context.report({
        node,
        messageId: 'deep',
        data: { file: relative(target), area: relative(area) },
      });
    });
  },
};

export default { rules: { 'no-cycle': noCycle, 'area-index': areaIndex } };
