/**
 * `gmem eval SUBCOMMAND ...`: evaluation against labelled data. Each subcommand is one entry in
 * EVAL_SUBCOMMANDS: followup, gate, retrieval, ab, nq (docs/evaluation.md).
 */
import { followupEval } from '../evalFollowup';
import { abEval } from '../evalAb';
import { gateEval } from '../evalGate';
import { nqEval } from '../evalNq';
import { retrievalEval } from '../evalRetrieval';
import { UsageError, type CliCommand, type CliIo } from '../cliTypes';

/** Every `gmem eval` subcommand. Add one line per subcommand. */
export const EVAL_SUBCOMMANDS: CliCommand[] = [followupEval, gateEval, retrievalEval, abEval, nqEval];

function usage(): string {
	const width = Math.max(...EVAL_SUBCOMMANDS.map((c) => c.name.length));
	const lines = EVAL_SUBCOMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
	const details = EVAL_SUBCOMMANDS.map((c) => c.usage.trimEnd());
	return ['usage: gmem eval <subcommand> [options]', '', 'subcommands:', ...lines, '', ...details, ''].join('\n');
}

/** The `eval` command: dispatches to its subcommands. */
export const evalCommand: CliCommand = {
	name: 'eval',
	summary: 'measure decisions against labelled data (eval followup|gate|retrieval|ab|nq)',
	get usage() {
		return usage();
	},
	run: async (argv: string[], io: CliIo): Promise<number> => {
		const [name, ...rest] = argv;
		const sub = EVAL_SUBCOMMANDS.find((c) => c.name === name);
		if (!sub) throw new UsageError(`${name ? `unknown subcommand "${name}"` : 'missing subcommand'}\n\n${usage()}`);
		return sub.run(rest, io);
	},
};
