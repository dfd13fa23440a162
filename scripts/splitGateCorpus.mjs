// Splits the blind-written gate corpus by conversation into train / dev / test (README beside the
// data: test/fixtures/eval/gate/README.md). Per author file, conversations are ordered by the
// SHA-256 of their id — an order nobody chose — and the first 2 go to test, the next 2 to dev, the
// rest to train, so every author's style is in every split.
//   node scripts/splitGateCorpus.mjs OUT_DIR AUTHOR.jsonl...
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

const [out, ...files] = process.argv.slice(2);
const splits = { train: [], dev: [], test: [] };
for (const file of files) {
	const rows = readFileSync(file, 'utf8')
		.split('\n')
		.filter((l) => l.trim())
		.map((l) => JSON.parse(l));
	const ids = [...new Set(rows.map((r) => r.conversation_id))];
	const order = ids
		.map((id) => [createHash('sha256').update(id).digest('hex'), id])
		.sort()
		.map(([, id]) => id);
	const which = new Map(order.map((id, i) => [id, i < 2 ? 'test' : i < 4 ? 'dev' : 'train']));
	for (const r of rows) splits[which.get(r.conversation_id)].push(r);
}
for (const [name, rows] of Object.entries(splits)) {
	writeFileSync(`${out}/${name}.jsonl`, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
	const users = rows.filter((r) => r.role === 'user').length;
	console.log(`${name}: ${new Set(rows.map((r) => r.conversation_id)).size} conversations, ${users} user turns`);
}
