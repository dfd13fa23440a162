/**
 * How VS Code's agent mode starts `gmem mcp` for this window: the bundled CLI beside the
 * extension, run by the extension host's own runtime (Electron runs as Node with
 * ELECTRON_RUN_AS_NODE; code-server's host is Node already), on the window's store and first
 * workspace folder. A server's password never goes into the definition (VS Code shows and may keep
 * it): the host adds it as PGPASSWORD only when VS Code is about to start the server. No `vscode`.
 */
import { join } from 'node:path';
import type { StoreLocation } from '../../store/location';
import { withoutPassword } from '../settings/storeSettings';

/** The part of `vscode.McpStdioServerDefinition` we use (not in @types/vscode 1.100). */
export interface StdioDefinition {
	env: Record<string, string | number | null>;
	cwd?: unknown;
}
type StdioDefinitionCtor = new (
	label: string,
	command: string,
	args?: string[],
	env?: Record<string, string | number | null>,
	version?: string,
) => StdioDefinition;

/** The part of `vscode.McpServerDefinitionProvider` we implement. */
export interface McpProvider {
	onDidChangeMcpServerDefinitions?: unknown;
	provideMcpServerDefinitions(token: unknown): StdioDefinition[];
	resolveMcpServerDefinition?(server: StdioDefinition, token: unknown): StdioDefinition;
}

/** Where the API lives: `vscode.lm.registerMcpServerDefinitionProvider` and `vscode.McpStdioServerDefinition`. */
export interface McpApiShape {
	lm?: unknown;
	McpStdioServerDefinition?: unknown;
}

interface McpLm {
	registerMcpServerDefinitionProvider(id: string, provider: McpProvider): { dispose(): unknown };
}

/** The MCP provider API of the running VS Code, or null when it has none (an older release, or a host without it). */
export function detectMcpApi(api: McpApiShape): { lm: McpLm; Definition: StdioDefinitionCtor } | null {
	const lm = api.lm as Partial<McpLm> | undefined;
	if (
		typeof lm?.registerMcpServerDefinitionProvider !== 'function' ||
		typeof api.McpStdioServerDefinition !== 'function'
	)
		return null;
	return { lm: lm as McpLm, Definition: api.McpStdioServerDefinition as StdioDefinitionCtor };
}

/** What a stdio MCP server definition holds. */
export interface McpLaunch {
	label: string;
	command: string;
	args: string[];
	env: Record<string, string>;
	/** The workspace folder (the server's working directory), or null with no folder open. */
	cwd: string | null;
}

export interface McpLaunchInput {
	execPath: string;
	extensionPath: string;
	folder: string | null;
	location: StoreLocation;
	allowWrites: boolean;
}

/** The definition for this window, without any password. */
export function mcpLaunch(o: McpLaunchInput): McpLaunch {
	const db = o.location.kind === 'folder' ? o.location.dir : withoutPassword(o.location.url);
	const args = [join(o.extensionPath, 'dist', 'cli.js'), 'mcp', '--db', db];
	if (o.folder) args.push('--workspace', o.folder);
	if (o.location.scope) args.push('--scope', o.location.scope);
	if (o.allowWrites) args.push('--allow-writes');
	return { label: 'Gated Memory', command: o.execPath, args, env: { ELECTRON_RUN_AS_NODE: '1' }, cwd: o.folder };
}

/** The environment to add at start time: the server's password, when the store URL carries one. */
export function mcpSecretEnv(location: StoreLocation): Record<string, string> {
	if (location.kind !== 'url') return {};
	try {
		const password = decodeURIComponent(new URL(location.url).password);
		return password ? { PGPASSWORD: password } : {};
	} catch {
		return {};
	}
}
