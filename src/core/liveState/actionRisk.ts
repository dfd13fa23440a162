/**
 * Whether a proposed command or git operation is destructive or looks like production, so the
 * host asks for a modal confirmation that names what it touches before running it. Pure; errs on
 * the side of asking.
 */

export interface ActionRisk {
	/** True: a modal confirmation is required before it runs. */
	confirm: boolean;
	/** Why, in words ("deletes files", "targets production"). */
	reasons: string[];
}

const DESTRUCTIVE: ReadonlyArray<readonly [RegExp, string]> = [
	[/\brm\s+(-[a-z]*[rf][a-z]*\s+)/i, 'deletes files'],
	[
		/\bgit\s+(reset\s+--hard|clean\s+-[a-z]*f|checkout\s+--\s|restore\b|push\s+(-f\b|--force)|branch\s+-D\b|stash\s+(drop|clear))/i,
		'discards git history or working-tree changes',
	],
	[/\b(drop|truncate)\s+(table|database|schema)\b/i, 'drops data'],
	[
		/\b(kubectl\s+(delete|apply|scale)|terraform\s+(apply|destroy)|helm\s+(upgrade|uninstall|delete))\b/i,
		'changes deployed infrastructure',
	],
	[/\b(npm|yarn|pnpm)\s+publish\b/i, 'publishes a package'],
	[/\bmkfs\b|\bdd\s+if=/i, 'overwrites a disk'],
];
const PRODUCTION =
	/\b(prod|production|live|master|main)\b.*\b(deploy|push|migrate|release)|\b(deploy|push|migrate|release)\b.*\b(prod|production|live)\b|--prod\b|NODE_ENV=production/i;

/** The risk of running `command` (a shell line or a git operation in words). */
export function commandRisk(command: string): ActionRisk {
	const reasons = DESTRUCTIVE.filter(([re]) => re.test(command)).map(([, why]) => why);
	if (PRODUCTION.test(command)) reasons.push('targets production');
	return { confirm: reasons.length > 0, reasons };
}
