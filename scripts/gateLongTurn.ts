/**
 * CPU time of one decision on a long pasted turn, for one or more checkouts' decision cores loaded
 * into one process (not a test): a log of 6,000 / 30,000 characters between a one-line question and
 * a one-line request, two history turns, 60 alternating passes; prints min and median µs. Shows
 * whether a decision's cost still grows with what was pasted (docs/decision-trace.md, Performance).
 *   npx tsx scripts/gateLongTurn.ts /work/main .
 */
import { pathToFileURL } from 'node:url';
const roots = process.argv.slice(2);
const line = [
	'[12:00:01] info compiling 212 modules',
	'    at KafkaConsumer.poll (src/queue/consumer.ts:88:13)',
	'[12:00:04] warn cache key computed for packages/api',
];
const paste = (n: number) => {
	const o: string[] = [];
	for (let c = 0, i = 0; c < n; i++) {
		o.push(line[i % 3]);
		c += line[i % 3].length + 1;
	}
	return o.join('\n');
};
void (async () => {
	const mods = await Promise.all(roots.map((r) => import(pathToFileURL(`${r}/src/core/decide.ts`).href)));
	for (const size of [6000, 30000]) {
		const u = `the build fails, here is the log:\n${paste(size)}\nwhy does the consumer time out?`;
		const history = [
			{ role: 'user' as const, content: 'the consumer keeps timing out' },
			{ role: 'assistant' as const, content: 'Which broker version are you on?' },
		];
		const res: number[][] = roots.map(() => []);
		for (let pass = 0; pass < 60; pass++)
			mods.forEach((m, i) => {
				const t = process.cpuUsage();
				m.decideTurn({ utterance: u, history });
				const d = process.cpuUsage(t);
				res[i].push(d.user + d.system);
			});
		res.forEach((r, i) => {
			r.sort((a, b) => a - b);
			console.log(`${size} chars  ${roots[i]}: min ${r[0]} median ${r[30]} µs`);
		});
	}
})();
