/**
 * Connects confirm-mode proposals (src/chat/memoryProposals.ts) to the chat panel: the panel is
 * sent the current chips when it loads and whenever they change; Approve / Edit / Discard from a
 * chip go to the service, and what happened is added to that reply's trace.
 */
import type { ChatController } from '../../chat/chatController';
import { errorMessage, type Logger } from '../../chat/logger';
import type { MemoryProposals } from '../../chat/memoryProposals';
import type { ChatViewProvider, HostMessenger } from './chatViewProvider';

export function wireMemoryProposals(deps: {
	provider: ChatViewProvider;
	controller: ChatController;
	proposals: MemoryProposals;
	log: Logger;
}): () => void {
	const { provider, controller, proposals, log } = deps;
	let messenger: HostMessenger | undefined;
	const push = () => {
		const target = messenger;
		if (!target) return;
		proposals.list().then(
			(list) => target.send('memory/proposals', { proposals: list }),
			(e: unknown) => log.warn(`memory proposals not shown: ${errorMessage(e)}`),
		);
	};
	provider.addRoutes((m) => {
		messenger = m;
		m.on('memory/approve', (p) => {
			void proposals.approve(p.id, p.text).then(async (d) => {
				if (!d.ok) log.warn(`memory proposal ${p.id}: ${d.message}`);
				// A store failure has no chip to explain it: say it in the panel (the proposal is kept).
				if (!d.ok && d.turnId === null)
					m.send('chat/error', { turnId: null, message: `Memory proposal: ${d.message}` });
				if (d.turnId) await controller.appendTraceSteps(d.turnId, d.steps);
				push();
			});
		});
		m.on('memory/discard', (p) => {
			void proposals.discard(p.id).then(async (d) => {
				if (!d.ok) log.warn(`memory proposal ${p.id}: ${d.message}`);
				if (d.turnId) await controller.appendTraceSteps(d.turnId, d.steps);
				push();
			});
		});
		return { ready: push };
	});
	return proposals.onChange(push);
}
