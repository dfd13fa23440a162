/** The classified turn: what the first stages of decideTurn found, read by the later ones. */
import type { BehaviorResult } from '../behavior/behaviorEngine';
import type { IntentResult, TurnFeatures } from '../intent/classifyIntent';
import type { TurnText } from '../text/turnText';
import type { TriggerResult } from '../trigger/classifyTrigger';
import type { FollowupResult } from '../types';

/** Everything the classification stages found out about the turn. */
export interface Classified {
	text: TurnText;
	features: TurnFeatures;
	followup: FollowupResult;
	trigger: TriggerResult;
	intent: IntentResult;
	behavior: BehaviorResult;
}
