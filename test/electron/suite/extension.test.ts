/**
 * Thin extension-host checks (the behaviour itself is covered by unit tests and the real-workbench
 * e2e): the extension activates, and every contributed command is registered and runs.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'gated-memory.gated-memory';

interface ContributedCommand {
	command: string;
}

describe('Gated Memory in the extension host', () => {
	it('activates', async () => {
		const ext = vscode.extensions.getExtension(EXTENSION_ID);
		assert.ok(ext, `${EXTENSION_ID} is not installed in the test host`);
		await ext.activate();
		assert.equal(ext.isActive, true);
	});

	it('registers every contributed command', async () => {
		const ext = vscode.extensions.getExtension(EXTENSION_ID);
		const contributed = (
			ext?.packageJSON as { contributes: { commands: ContributedCommand[] } }
		).contributes.commands.map((c) => c.command);
		const registered = new Set(await vscode.commands.getCommands(true));
		for (const id of contributed) assert.ok(registered.has(id), `${id} is contributed but not registered`);
	});

	it('Inspect Memory State opens the memory state webview panel', async () => {
		await vscode.commands.executeCommand('gatedMemory.inspectMemoryState');
		const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
		assert.ok(input instanceof vscode.TabInputWebview, 'the active tab is not a webview');
		assert.match(input.viewType, /gatedMemory\.memoryState$/);
	});

	it('New Conversation runs', async () => {
		await vscode.commands.executeCommand('gatedMemory.newConversation');
	});
});
