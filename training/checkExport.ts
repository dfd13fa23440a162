/**
 * Smoke check of an exported model folder: the TypeScript loader reads it, and its tokenizer ids
 * and vectors match what the Python side wrote into DIR/tokenizer_cases.json.
 *
 *   npx tsx training/checkExport.ts DIR
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBuiltinEmbedder } from '../src/models/builtinEmbedder';

interface Case {
	text: string;
	vector_head: number[];
}

async function main(): Promise<void> {
	const dir = process.argv[2];
	if (!dir) throw new Error('usage: checkExport.ts DIR');
	const { cases } = JSON.parse(readFileSync(join(dir, 'tokenizer_cases.json'), 'utf8')) as { cases: Case[] };
	const e = await loadBuiltinEmbedder(dir);
	const vs = await e.embed(cases.map((c) => c.text));
	let worst = 0;
	for (const [i, c] of cases.entries())
		c.vector_head.forEach((x, j) => (worst = Math.max(worst, Math.abs(vs[i]![j]! - x))));
	if (worst > 1e-5) throw new Error(`TypeScript vectors differ from Python's by ${worst}`);
	process.stdout.write(
		`checkExport: ${e.id} from ${dir}: ${cases.length} texts, max |TS - Python| ${worst.toExponential(1)}\n`,
	);
}

main().catch((e: unknown) => {
	process.stderr.write(`checkExport: ${e instanceof Error ? e.message : String(e)}\n`);
	process.exitCode = 1;
});
