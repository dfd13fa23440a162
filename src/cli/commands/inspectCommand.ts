/**
 * `gmem inspect [--json]`: what the store holds — rows per tier, database and disk size, engine,
 * schema version, and the most recent turn decisions.
 */
import { storeStats, type StoreStats } from '../../store/storeStats';
import { parseCommandArgs } from '../args';
import { EXIT_OK, type CliCommand, type CliIo } from '../cliTypes';
import { STORE_OPTIONS, withStore } from '../storeCli';

const USAGE = `usage: gmem inspect [--db PATH|URL] [--scope NAME] [--json]

Prints rows per tier, database size, engine, schema version and recent decisions.`;

function mb(bytes: number): string {
	return `${(bytes / 1048576).toFixed(1)} MB`;
}

function human(s: StoreStats): string {
	const t = s.tiers;
	const lines = [
		`store       ${s.where}`,
		`engine      ${s.engine}, schema version ${s.schema_version}`,
		`size        database ${mb(s.database_bytes)}${s.disk_bytes === null ? '' : `, on disk ${mb(s.disk_bytes)}`}`,
		`workspaces  ${s.workspaces}`,
		`workspace   ${t.workspace.documents} documents, ${t.workspace.chunks} chunks (${t.workspace.embedded} with vectors)`,
		`research    ${t.research.memories} memories (${t.research.superseded} superseded), ${t.research.documents} documents, ${t.research.chunks} chunks`,
		`profile     ${t.profile.current} current values, ${t.profile.history} in history`,
		`conversation ${t.conversation.turns} turns`,
		'recent decisions:',
		...(s.recent_decisions.length
			? s.recent_decisions.map(
					(d) =>
						`  ${d.created_at}  ${d.turn_id}  trigger=${String(d.trigger)} route=${String(d.route)} path=${String(d.path)}`,
				)
			: ['  (none)']),
	];
	return lines.join('\n') + '\n';
}

async function run(argv: string[], io: CliIo): Promise<number> {
	const { values } = parseCommandArgs(argv, STORE_OPTIONS, false);
	const stats = await withStore(values, io, (store) => storeStats(store));
	io.stdout(values.json ? JSON.stringify(stats) + '\n' : human(stats));
	return EXIT_OK;
}

export const inspectCommand: CliCommand = { name: 'inspect', summary: 'Show what the store holds', usage: USAGE, run };
