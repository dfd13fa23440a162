/**
 * SWE-bench Lite file localisation → `gmem eval nq` rows (issue 15), for the projects whose source
 * a Debian package installs here. A project's package tree is its import package (sympy/ under
 * dist-packages), so a gold path `sympy/core/basic.py` becomes `core/basic.py` under that root;
 * rows whose gold file does not exist in the installed version are dropped and counted (Debian's
 * version is not the issue's commit). Deterministic: input order, nothing sampled.
 *
 *   npx tsx scripts/sweToNq.ts ../shared/eval/dev/swe_lite_loc_dev.jsonl OUT.jsonl [--dist /usr/lib/python3/dist-packages]
 *   node dist/cli.js eval nq OUT.jsonl --root sympy=/usr/lib/python3/dist-packages/sympy
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
	allowPositionals: true,
	options: { dist: { type: 'string', default: '/usr/lib/python3/dist-packages' } },
});
const [input, output] = positionals;
if (!input || !output) throw new Error('usage: sweToNq.ts SWE_LOC.jsonl OUT.jsonl [--dist DIR]');
const dist = values.dist ?? '/usr/lib/python3/dist-packages';

interface SweRow {
	id: string;
	repo: string;
	query: string;
	gold_files: string[];
}

const rows = readFileSync(input, 'utf8')
	.split('\n')
	.filter((l) => l.trim())
	.map((l) => JSON.parse(l) as SweRow);
const out: string[] = [];
const report = new Map<string, { rows: number; kept: number; installed: boolean }>();
for (const r of rows) {
	// The import package: the repository name for all eight projects but scikit-learn (sklearn).
	const name = r.repo.split('/')[1] === 'scikit-learn' ? 'sklearn' : r.repo.split('/')[1];
	const root = join(dist, name);
	const rep = report.get(name) ?? { rows: 0, kept: 0, installed: existsSync(root) };
	rep.rows++;
	report.set(name, rep);
	if (!rep.installed) continue;
	const gold = r.gold_files
		.filter((g) => g.startsWith(`${name}/`))
		.map((g) => g.slice(name.length + 1))
		.filter((g) => existsSync(join(root, g)));
	if (gold.length === 0) continue;
	rep.kept++;
	out.push(JSON.stringify({ id: r.id, repo: name, style: 'swe-lite', question: r.query, gold_files: gold }));
}
writeFileSync(output, out.join('\n') + '\n');
for (const [name, r] of report)
	console.log(
		`${name}: ${r.rows} issues, ${r.installed ? `${r.kept} kept (gold file exists in the installed tree)` : 'not installed here'}`,
	);
