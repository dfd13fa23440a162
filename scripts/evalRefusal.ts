/**
 * Refusal figures through the product's decision (`decideTurn(...).path === 'refuse'`): on the
 * refusal probe sets ({"history", "utterance", "refuse", "kind"} rows) and on labelled
 * conversations (path "refuse" as the label). Prints refused / labelled, false refusals, per kind.
 *   npx tsx scripts/evalRefusal.ts [--errors] FILE.jsonl...
 */
import { readFileSync } from 'node:fs';
import { decideTurn } from '../src/core/decide';
import type { HistoryTurn } from '../src/core/types';

const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const showErrors = process.argv.includes('--errors');
const kinds = new Map<string, { n: number; right: number }>();
let tp = 0;
let fn = 0;
let fp = 0;
let n = 0;
for (const file of files) {
	const histories = new Map<string, HistoryTurn[]>();
	for (const line of readFileSync(file, 'utf8').split('\n')) {
		if (!line.trim()) continue;
		const o = JSON.parse(line);
		let history: HistoryTurn[];
		let utterance: string;
		if (o.utterance !== undefined) {
			history = o.history ?? [];
			utterance = o.utterance;
		} else {
			const h = histories.get(o.conversation_id) ?? [];
			histories.set(o.conversation_id, h);
			if (o.role === 'assistant') {
				h.push({ role: 'assistant', content: o.content });
				continue;
			}
			history = h.slice();
			utterance = o.content;
			h.push({ role: 'user', content: utterance });
		}
		const gold: boolean = o.refuse ?? o.path === 'refuse';
		const got = decideTurn({ history, utterance }).path === 'refuse';
		n++;
		const kind = o.kind ?? (gold ? 'refuse' : 'other');
		const k = kinds.get(kind) ?? { n: 0, right: 0 };
		kinds.set(kind, k);
		k.n++;
		if (got === gold) k.right++;
		if (gold && got) tp++;
		else if (gold) fn++;
		else if (got) fp++;
		if (showErrors && got !== gold)
			console.log(`${gold ? 'MISS ' : 'FALSE'} ${JSON.stringify(utterance.slice(0, 160))}`);
	}
}
console.log(
	`${n} turns: refused ${tp} of ${tp + fn} labelled refuse; ${fp} false refusals of ${n - tp - fn} ordinary turns`,
);
for (const [kind, k] of [...kinds].sort()) console.log(`  ${kind.padEnd(24)} ${k.right}/${k.n} right`);
