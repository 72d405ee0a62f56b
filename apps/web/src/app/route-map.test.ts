// @vitest-environment node
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as contract from '@inventory/contract';
import type { Access, EndpointDefinition } from '@inventory/contract';
import { format, resolveConfig } from 'prettier';
import ts from 'typescript';
import { expect, it } from 'vitest';
import type { PageEntry } from '../shell/page-types';
import { AGENT_PAGES, STAFF_PAGES } from './page-registry';

/**
 * docs/route-map.md, generated: for each route its menu group, guard, page file, the endpoints
 * the page's code names and the server files that name them. The endpoints are read from the
 * contract names each file imports, following the page's imports through its own feature and the
 * named exports it takes from other areas' index files (the shell and the toolkit serve every
 * page, so they are not followed). `npm run docs:routes` writes the file.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const MAP_FILE = path.join(ROOT, 'docs/route-map.md');
const WEB = path.join(ROOT, 'apps/web/src');
const API = path.join(ROOT, 'apps/api/src');
const NOT_FOLLOWED = ['shell', 'toolkit', 'app'].map((folder) => path.join(WEB, folder));

const relative = (file: string) => path.relative(ROOT, file);
const isEndpoint = (value: unknown): value is EndpointDefinition =>
  typeof value === 'object' &&
  value !== null &&
  'method' in value &&
  'path' in value &&
  'guard' in value;
const endpointKey = (endpoint: EndpointDefinition) => `${endpoint.method} ${endpoint.path}`;

/** Every endpoint of the contract, and the endpoints each exported name stands for. */
function contractEndpoints() {
  const all = new Map<string, EndpointDefinition>();
  const groups = new Map<string, EndpointDefinition[]>();
  for (const [name, value] of Object.entries(contract)) {
    if (isEndpoint(value)) groups.set(name, [value]);
    else if (typeof value === 'object' && value !== null) {
      const members = Object.values(value).filter(isEndpoint);
      if (members.length > 0) groups.set(name, members);
    }
  }
  for (const endpoint of [...groups.values()].flat()) all.set(endpointKey(endpoint), endpoint);
  // A list or resource definition stands for the endpoints under its name (`/colors`, `/colors/:id`).
  for (const [name, value] of Object.entries(contract)) {
    if (groups.has(name) || typeof value !== 'object' || value === null) continue;
    const base = 'plural' in value && 'name' in value ? `/${String(value.name)}` : null;
    if (!base) continue;
    const members = [...all.values()].filter(
      (endpoint) => endpoint.path === base || endpoint.path.startsWith(`${base}/`),
    );
    if (members.length > 0) groups.set(name, members);
  }
  return { all, groups };
}

type Imports = { readonly specifier: string; readonly names: readonly string[] }[];

const importsByFile = new Map<string, Imports>();

/** The import and re-export statements of a file, with the names they take. */
function importsOf(file: string): Imports {
  const known = importsByFile.get(file);
  if (known) return known;
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: { specifier: string; names: string[] }[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const names: string[] = [];
      const bindings = ts.isImportDeclaration(node)
        ? node.importClause?.namedBindings
        : node.exportClause;
      if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) {
        for (const element of bindings.elements) names.push(element.name.text);
      }
      found.push({ specifier: node.moduleSpecifier.text, names });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, names: [] });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  importsByFile.set(file, found);
  return found;
}

function resolve(specifier: string, importer: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(importer), specifier.replace(/\.js$/, ''));
  const candidates = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  return candidates.find((candidate) => fs.existsSync(candidate)) ?? null;
}

const featureOf = (file: string) =>
  path.relative(path.join(WEB, 'features'), file).split(path.sep)[0];

/**
 * How a file uses a contract name: `blacklistEndpoints.list` when it reads only members of it
 * (a query key naming one endpoint of a group), the name itself otherwise.
 */
function usesOf(file: string, name: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const all = text.match(new RegExp(`\\b${name}\\b`, 'g'))?.length ?? 0;
  const members = [...text.matchAll(new RegExp(`\\b${name}\\.(\\w+)`, 'g'))].map((m) => m[1]);
  // One use is the import itself.
  return members.length === all - 1 ? members.map((member) => `${name}.${member}`) : [name];
}

/** The contract names a page's code imports, or the members of them it reads. */
function contractNamesOfPage(pageFile: string): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string, only: readonly string[] | null) => {
    const key = `${file}|${only?.join(',') ?? '*'}`;
    if (seen.has(key)) return;
    seen.add(key);
    const isIndex = /\/index\.tsx?$/.test(file);
    for (const { specifier, names: taken } of importsOf(file)) {
      if (specifier === '@inventory/contract') {
        taken.forEach((name) => usesOf(file, name).forEach((use) => names.add(use)));
        continue;
      }
      const target = resolve(specifier, file);
      if (!target || NOT_FOLLOWED.some((folder) => target.startsWith(folder + path.sep))) continue;
      // Of an index, only the exports the importer takes lead on.
      if (isIndex && only && !taken.some((name) => only.includes(name))) continue;
      const crossesAreas = featureOf(target) !== featureOf(file);
      visit(target, crossesAreas ? taken : null);
    }
  };
  visit(pageFile, null);
  return names;
}

/** The page file of each route that a feature's `*.pages.ts` loads itself. */
function pageFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const features = path.join(WEB, 'features');
  for (const feature of fs.readdirSync(features)) {
    for (const name of fs.readdirSync(path.join(features, feature))) {
      if (!name.endsWith('.pages.ts')) continue;
      const file = path.join(features, feature, name);
      const text = fs.readFileSync(file, 'utf8');
      const entry = /path: '([^']+)'[^}]*?load: \(\) => import\('([^']+)'\)/gs;
      for (const [, route, specifier] of text.matchAll(entry)) {
        const target = resolve(specifier!, file);
        if (target) files.set(route!, target);
      }
    }
  }
  return files;
}

/** The server files (tests aside) that import each endpoint's contract names. */
function serverFiles(groups: Map<string, EndpointDefinition[]>): Map<string, string[]> {
  const byEndpoint = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/(?<!\.test|\.test-d)\.ts$/.test(entry.name)) {
        for (const { specifier, names } of importsOf(file)) {
          if (specifier !== '@inventory/contract') continue;
          for (const endpoint of names.flatMap((name) => groups.get(name) ?? [])) {
            const key = endpointKey(endpoint);
            const list = byEndpoint.get(key) ?? [];
            if (!list.includes(relative(file))) byEndpoint.set(key, [...list, relative(file)]);
          }
        }
      }
    }
  };
  walk(path.join(API, 'modules'));
  walk(path.join(API, 'toolkit'));
  return byEndpoint;
}

/** The endpoints a name (`colorEndpoints`) or a member of it (`colorEndpoints.list`) stands for. */
function endpointsOf(use: string, groups: Map<string, EndpointDefinition[]>) {
  const [name, member] = use.split('.') as [string, string | undefined];
  const value: unknown = member ? (contract as Record<string, unknown>)[name] : undefined;
  if (member && typeof value === 'object' && value !== null) {
    const picked = (value as Record<string, unknown>)[member];
    if (isEndpoint(picked)) return [picked];
  }
  return groups.get(name) ?? [];
}

const guardOf = (access: Access) =>
  [
    access.permission === 'roles' ? `roles ${access.roles?.join(', ')}` : access.permission,
    access.andPermission,
  ]
    .filter(Boolean)
    .join(' + ') || 'session';

/** Endpoints by path, then method. */
const byPath = (a: string, b: string) =>
  a.slice(a.indexOf(' ')).localeCompare(b.slice(b.indexOf(' '))) || a.localeCompare(b);

async function routeMap(): Promise<string> {
  const { groups } = contractEndpoints();
  const pages = pageFiles();
  const server = serverFiles(groups);
  const section = (entry: PageEntry) => {
    const lines = [
      `### \`${entry.path}\`: ${entry.label}`,
      '',
      `- For: ${entry.summary}`,
      `- Guard: ${guardOf(entry)}`,
    ];
    const file = pages.get(entry.path);
    if (!file) throw new Error(`No page file found for ${entry.path}`);
    lines.push(`- Page: \`${relative(file)}\``);
    const endpoints = new Map<string, EndpointDefinition>();
    for (const use of contractNamesOfPage(file)) {
      for (const endpoint of endpointsOf(use, groups))
        endpoints.set(endpointKey(endpoint), endpoint);
    }
    const keys = [...endpoints.keys()].sort(byPath);
    const files = [...new Set(keys.flatMap((key) => server.get(key) ?? []))].sort();
    lines.push(`- Endpoints: ${keys.map((key) => `\`${key}\``).join(', ') || 'none'}`);
    if (files.length > 0) lines.push(`- Server: ${files.map((f) => `\`${f}\``).join(', ')}`);
    return lines.join('\n');
  };
  const parts = [
    '# Route map',
    [
      'Generated from the page registry, the contract and the imports of the web and server code',
      '(`apps/web/src/app/route-map.test.ts`); the test fails when this file is stale. Refresh it',
      'with `npm run docs:routes`. For each route: its guard, its page file, the endpoints the',
      "page's code names, and the server files that name them (the module that registers an",
      'endpoint and the service or store that serves it).',
    ].join(' '),
  ];
  const menuGroups = [...contract.MENU_GROUPS, null];
  for (const group of menuGroups) {
    const entries = STAFF_PAGES.filter((entry) => entry.group === group);
    if (entries.length === 0) continue;
    parts.push(`## ${group ?? 'Outside the menu'}`, ...entries.map(section));
  }
  parts.push('## Agent layout', ...AGENT_PAGES.map(section));
  return format(parts.join('\n\n'), { ...(await resolveConfig(MAP_FILE)), filepath: MAP_FILE });
}

it('docs/route-map.md is fresh', async () => {
  const fresh = await routeMap();
  if (process.env.ROUTE_MAP === 'write') fs.writeFileSync(MAP_FILE, fresh);
  const current = fs.existsSync(MAP_FILE) ? fs.readFileSync(MAP_FILE, 'utf8') : '';
  expect(current === fresh, 'docs/route-map.md is stale: run `npm run docs:routes`').toBe(true);
}, 30_000);
