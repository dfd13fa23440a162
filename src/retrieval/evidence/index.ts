/** The evidence stage: rerank the wide pool, then select, budget and order the evidence. */
export { COSINE_CALIBRATIONS, calibratedFloor, type CosineCalibration } from './calibration';
export { edgesFirst } from './order';
export { runEvidenceStage, type EvidenceStageInput, type EvidenceStageResult } from './evidenceStage';
export { rerankCandidates, type RerankOutcome } from './rerankStage';
export { estimateTokens, selectEvidence } from './selectEvidence';
export type {
	CandidateDecision,
	EmbedderInfo,
	EvidenceCandidate,
	EvidenceInput,
	EvidenceOutcome,
	EvidenceResult,
	ScoreBasis,
	SelectedEvidence,
} from './types';
