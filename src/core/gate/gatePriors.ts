/**
 * The rubric's own reading of the cue families, as prior weights: the fit (training/fitGate.ts)
 * starts from these and is pulled back towards them by its L2 term, instead of towards zero. So a
 * cue the rubric defines ("from now on" → instruction, a live-state cue → tool) keeps its meaning
 * when the training data has few examples of it, and the data corrects the rest. Each entry:
 * head → feature → class → logit, with the rubric's reason. Written from ../shared/gate-rubric.md,
 * never from the evaluation data.
 */
import type { HeadName } from './gateModel';

export interface Prior {
	head: HeadName;
	feature: string;
	/** class → prior logit (other classes 0). */
	logits: Readonly<Record<string, number>>;
	why: string;
}

const P = (head: HeadName, feature: string, logits: Record<string, number>, why: string): Prior => ({
	head,
	feature,
	logits,
	why,
});

export const GATE_PRIORS: readonly Prior[] = [
	// trigger — first match: correction > instruction > recall > question > statement > greeting/ack.
	P(
		'trigger',
		'instruction_cue',
		{ instruction: 3 },
		'a standing directive ("from now on", "always use…") is an instruction, even phrased as a question',
	),
	P('trigger', 'recall_cue', { recall: 2.5 }, 'an explicit ask for what was said, decided or stored before is recall'),
	P(
		'trigger',
		'correction_cue',
		{ correction: 2 },
		'saying a stored belief or the last claim is wrong is a correction',
	),
	P(
		'trigger',
		'doubt',
		{ question: 1, recall: 1 },
		'a statement carrying doubt is a question (a hedged check of a past decision is recall)',
	),
	P('trigger', 'note_directive', { statement: 4 }, '"note that…", "write down…" tells and asks nothing: a statement'),
	P('trigger', 'statement_lead', { statement: 1.5 }, 'a declarative opening tells something'),
	P('trigger', 'decision_words', { statement: 1.5 }, 'a recorded decision is a statement'),
	P('trigger', 'social', { greeting: 1.5, ack: 1.5 }, 'a whole-message social formula is a greeting or an ack'),
	P('trigger', 'thanks_start', { ack: 2 }, 'thanks that asks for nothing is an ack'),
	P('trigger', 'pasted_trace', { question: 2 }, 'a pasted failure with no question is an implicit request to debug'),
	P('trigger', 'ends_question', { question: 1 }, 'a question mark asks'),
	P('trigger', 'imperative_start', { question: 1 }, 'imperatives are requests'),
	P('trigger', 'live_run', { question: 1.5 }, 'running something is a request'),
	P('trigger', 'bare_answer', { question: 1, ack: 1 }, '"yes" accepting an offer is a request; plain agreement an ack'),
	// path.
	P('path', 'live_diag', { tool: 2.5 }, 'diagnostics are live state'),
	P('path', 'live_git', { tool: 2.5 }, 'git state is live state'),
	P('path', 'live_selection', { tool: 2.5 }, 'the editor selection (and edits to it) is live state'),
	P('path', 'live_run', { tool: 2 }, 'running tests, builds and commands is a tool action'),
	P('path', 'live_tests', { tool: 2 }, 'test runs and their results are live state'),
	P('path', 'live_ci', { tool: 2 }, 'CI run status is live state'),
	P('path', 'live_terminal', { tool: 2 }, 'terminals and processes are live state'),
	P('path', 'live_undo', { tool: 2 }, 'revert, commit, pull… act on the live repository'),
	P('path', 'live_command', { tool: 2 }, 'a named command to run is a tool action'),
	P(
		'path',
		'meta_reply',
		{ direct: 3 },
		'"why though?", "shorter", "which would you pick?" transform what is in the window',
	),
	P('path', 'meta_any', { direct: 2 }, 'explaining, shortening or judging the last reply needs only the window'),
	P('path', 'last_reply_ref', { direct: 1.5 }, "explaining or editing the assistant's own reply needs only the window"),
	P('path', 'general_shape', { direct: 2 }, 'general knowledge unrelated to the project is answered directly'),
	P('path', 'general_marker', { direct: 2.5 }, '"in general", "not for my code" asks for general knowledge'),
	P('path', 'off_topic', { direct: 2 }, 'off-topic questions are answered directly'),
	P('path', 'failure_with_code_path', { rag: 2.5 }, "a pasted failure with the project's frames needs the code read"),
	P('path', 'project_frame', { rag: 1.5 }, "frames in the project's own folders point at its code"),
	P('path', 'third_party_frame', { direct: 0.5 }, 'a failure entirely in a library may be answered generally'),
	P('path', 'profile_ref', { rag: 1.5 }, '"my usual format" must look the preference up'),
	P('path', 'recall_cue', { rag: 2.5 }, 'recall retrieves'),
	P('path', 'doubt', { rag: 1.5 }, 'doubt about the project is checked against stored knowledge'),
	P('path', 'code_fence', { direct: 1 }, 'explaining a pasted snippet needs only the window'),
	P('path', 'edit_anywhere', { rag: 1 }, 'an edit to a file not in the window reads it first'),
	P('path', 'social', { direct: 2 }, 'greetings and thanks are answered directly'),
	P('path', 'instruction_cue', { direct: 2 }, 'instructions are acknowledged, not searched'),
	P('path', 'note_directive', { direct: 2 }, 'statements are acknowledged, not searched'),
	P(
		'path',
		'vague_first_turn',
		{ clarify: 3 },
		'a request whose only object is a pronoun, with nothing earlier, has no referent',
	),
	P(
		'path',
		'vague_with_history',
		{ rag: 2, clarify: -1 },
		'with earlier turns the pronoun resolves: answer it (retrieve on ambiguity)',
	),
	P(
		'path',
		'this_code_first_turn',
		{ tool: 3 },
		'"this function" with nothing earlier is the one in the editor: live state',
	),
	P(
		'path',
		'fragment',
		{ rag: 1.5 },
		'a fragment that neither asks nor tells is a question that retrieves (retrieve on ambiguity)',
	),
	P('path', 'frustration_with_history', { rag: 1 }, 'the last answer failed: look again rather than repeat it'),
	P(
		'path',
		'short_after_project',
		{ rag: 1 },
		'a short follow-up in a thread about the project asks about the project',
	),
	P(
		'path',
		'project_followup_code_not_in_window',
		{ rag: 1.5 },
		'retrieved chunks are not in the window: a question about the code they showed fetches it again',
	),
	P(
		'tier_workspace',
		'project_followup_code_not_in_window',
		{ yes: 1.5 },
		'the code must be read again from the workspace',
	),
	P('path', 'short_after_general', { direct: 1 }, 'a short follow-up in a general-knowledge thread stays general'),
	P(
		'path',
		'short_question_not_live',
		{ tool: -1 },
		'a short question with no live-state cue asks about something, it does not run anything',
	),
	// follow-up.
	P('followup', 'vague_with_history', { yes: 2 }, 'the pronoun is resolved against the earlier turn'),
	P('followup', 'leaning_start', { yes: 1.5 }, 'an opening pronoun or connective leans on the last turn'),
	P('followup', 'bare_answer', { yes: 2 }, 'a bare answer needs the question it answers'),
	P('followup', 'meta_reply', { yes: 2 }, 'ellipsis about the last reply depends on it'),
	P('followup', 'last_reply_ref', { yes: 2 }, "a reference to the assistant's reply depends on it"),
	P('followup', 'deictic_noun', { yes: 1.5 }, '"that line", "the other one" point back'),
	P('followup', 'then_link', { yes: 1 }, '"… then" continues the last turn'),
	P('followup', 'ellipsis_tail', { yes: 1 }, '"… too?", "… instead" are elliptical'),
	P('followup', 'history_greeting_only', { no: 2 }, 'after a greeting-only history there is nothing to lean on'),
	P('followup', 'restated_topic', { no: 1.5 }, 'a turn that names its own target stands alone'),
	P('followup', 'pasted_trace', { no: 1 }, 'the referent is inside the turn'),
	P('followup', 'live_diag', { no: 1 }, 'a reference to the editor, not to the conversation'),
	P('followup', 'live_selection', { no: 1 }, 'a reference to the editor, not to the conversation'),
	P(
		'followup',
		'long_no_anaphora',
		{ no: 1.5 },
		'a turn with several words and no pronoun or back-reference names its own target',
	),
	P('followup', 'early_anaphora', { yes: 1 }, 'a pronoun or "then"/"again" at the start of the request points back'),
	P(
		'followup',
		'named_no_early_anaphora',
		{ no: 1 },
		'a turn that names its target and opens without a back-reference stands alone',
	),
	P('followup', 'social', { no: 1.5 }, 'greetings and thanks do not depend on earlier turns'),
	P('followup', 'thanks_start', { no: 1.5 }, 'thanks do not depend on earlier turns'),
	// tiers.
	P('tier_research', 'recall_cue', { yes: 3 }, 'recall searches research memory'),
	P('tier_research', 'doubt', { yes: 1.5 }, 'doubt about a past decision checks research memory'),
	P('tier_research', 'rule_past_ref', { yes: 1.5 }, '"why did we…" refers to earlier decisions'),
	P('tier_profile', 'profile_ref', { yes: 3 }, 'the profile is searched only when the turn invokes it'),
	P('tier_workspace', 'live_selection', { no: 1.5 }, 'live state comes from the tool, not from stored text'),
	P('tier_workspace', 'live_diag', { no: 1.5 }, 'live state comes from the tool, not from stored text'),
	P('tier_workspace', 'live_git', { no: 1.5 }, 'live state comes from the tool, not from stored text'),
	P('tier_workspace', 'live_tests', { no: 1 }, 'live state comes from the tool, not from stored text'),
	P('tier_workspace', 'failure_with_code_path', { yes: 2 }, 'the failing code must be read'),
	P('tier_workspace', 'code_path', { yes: 1 }, 'a named file is read from the workspace'),
	// writes.
	P('write_profile', 'rule_about_user', { yes: 2 }, 'facts about the user go to the profile'),
	P('write_research', 'decision_words', { yes: 2 }, 'project decisions go to research'),
	P('write_research', 'note_directive', { yes: 1.5 }, '"write down that…" records a project fact'),
];
