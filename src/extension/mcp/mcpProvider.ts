/**
 * Offers `gmem mcp` to VS Code's agent mode through `vscode.lm.registerMcpServerDefinitionProvider`
 * where the running VS Code has it (@types/vscode 1.100 lacks it; VS Code 1.100 itself has it but
 * reads the package.json contribution under its older name, so both names are contributed): feature-detected, with the narrow shapes it needs declared in mcpDefinition.ts. Read-only unless
 * `gatedMemory.mcp.allowWrites`; nothing is offered in Restricted Mode (no stored memory is read).
 */
import * as vscode from 'vscode';
import type { StoreLocation } from '../../store/location';
import { errorMessage, type Logger } from '../../chat/logger';
import { detectMcpApi, mcpLaunch, mcpSecretEnv, type McpApiShape, type StdioDefinition } from './mcpDefinition';

/** The provider id contributed in package.json (`mcpServerDefinitionProviders`). */
export const MCP_PROVIDER_ID = 'gatedMemory.mcp';

export interface McpProviderDeps {
	log: Logger;
	location: () => StoreLocation;
	folders: () => readonly string[];
}

/** Registers the provider when VS Code offers the API; logs either way. */
export function registerMcpProvider(context: vscode.ExtensionContext, deps: McpProviderDeps): void {
	const api = detectMcpApi(vscode as unknown as McpApiShape);
	if (!api) {
		deps.log.info(
			`MCP server for agent mode: not offered (VS Code ${vscode.version} has no registerMcpServerDefinitionProvider); run "gmem mcp" from an mcp.json instead`,
		);
		return;
	}
	const changed = new vscode.EventEmitter<void>();
	const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '');
	const provider = {
		onDidChangeMcpServerDefinitions: changed.event,
		provideMcpServerDefinitions: () => {
			if (!vscode.workspace.isTrusted) return [];
			const allowWrites = vscode.workspace.getConfiguration('gatedMemory').get<boolean>('mcp.allowWrites') === true;
			const launch = mcpLaunch({
				execPath: process.execPath,
				extensionPath: context.extensionPath,
				folder: deps.folders()[0] ?? null,
				location: deps.location(),
				allowWrites,
			});
			const def = new api.Definition(launch.label, launch.command, launch.args, launch.env, version);
			if (launch.cwd) def.cwd = vscode.Uri.file(launch.cwd);
			return [def];
		},
		// Called just before VS Code starts the server: the only moment the password is handed over.
		resolveMcpServerDefinition: (def: StdioDefinition) => {
			def.env = { ...def.env, ...mcpSecretEnv(deps.location()) };
			return def;
		},
	};
	let registration: { dispose(): unknown };
	try {
		registration = api.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider);
	} catch (e) {
		// VS Code checks the package.json contribution (its name changed between releases): an
		// optional feature that fails must never fail activation.
		changed.dispose();
		deps.log.warn(
			`MCP server for agent mode: not offered (VS Code ${vscode.version} refused the provider: ${errorMessage(e)})`,
		);
		return;
	}
	context.subscriptions.push(
		changed,
		registration,
		vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
		vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
		vscode.workspace.onDidChangeConfiguration((e) => {
			if (['gatedMemory.mcp', 'gatedMemory.storage', 'gatedMemory.database'].some((s) => e.affectsConfiguration(s)))
				changed.fire();
		}),
	);
	deps.log.info(`MCP server for agent mode: offered as "${MCP_PROVIDER_ID}"`);
}
