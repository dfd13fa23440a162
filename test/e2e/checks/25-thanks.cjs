// "thanks" after a retrieval answer: the gate must skip retrieval (an acknowledgement needs no
// lookup), and the trace must say so — the cost we save on every such turn.
async function run({ web, check, expect, send }) {
	await check('"thanks" after a cited answer gets a reply whose trace says retrieval was skipped', async () => {
		const replies = web.locator('article.msg-assistant');
		const before = await replies.count();
		await send(web, 'thanks, that helps!');
		await replies.nth(before).waitFor({ timeout: 30000 });
		const reply = replies.nth(before);
		const headline = await reply.locator('vscode-collapsible.trace').getAttribute('description');
		expect(/no lookup/.test(headline) && /ack/.test(headline), `trace headline: ${headline}`);
		expect(/tiers: none/.test(await reply.locator('.trace-badges').innerText()), 'tiers badge is not "none"');
		expect((await reply.locator('.step-retrieval').count()) === 0, 'the trace has a retrieval step');
	});
}

module.exports = { run };
