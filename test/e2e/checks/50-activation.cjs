// The extension host's own log for this run (LOGS_DIR, set by run.sh): activation finished without
// an error — the e2e drives the panel, which works even when a late registration failed — and the
// MCP provider for agent mode was registered with this VS Code (1.100 has the API, with the
// package.json contribution under its older name, modelContextServerCollections).
const fs = require('fs');
const path = require('path');

function extensionLog(dir) {
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, entry.name);
		if (entry.isDirectory()) {
			const found = extensionLog(p);
			if (found) return found;
		} else if (entry.name === 'Gated Memory.log') return p;
	}
	return null;
}

async function run({ check, expect }) {
	await check('the extension activated without an error and offered its MCP server to agent mode', async () => {
		const file = process.env.LOGS_DIR && extensionLog(process.env.LOGS_DIR);
		expect(!!file, `no "Gated Memory.log" under ${process.env.LOGS_DIR}`);
		const log = fs.readFileSync(file, 'utf8');
		expect(
			!/\[error\] activation failed/.test(log),
			log.split('\n').find((l) => /activation failed/.test(l)),
		);
		expect(
			/MCP server for agent mode: offered as "gatedMemory.mcp"/.test(log),
			log.split('\n').find((l) => /MCP server/.test(l)) ?? 'no MCP line in the log',
		);
	});
}

module.exports = { run };
