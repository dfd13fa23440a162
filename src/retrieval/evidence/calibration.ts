/**
 * Cosine floors belong to the embedder that produced the cosine (CONTRACT.md "Scores and
 * floors"). The policy states its floors in MiniLM cosine units (seed 000's 0.35 / 0.45 / 0.65);
 * each embedder maps them to its own scale with a linear calibration measured on a shared
 * question set: floor_e = scale · floor_minilm + offset.
 */
import type { EmbedderInfo } from './types';

/** One embedder's calibration. */
export interface CosineCalibration {
	/** Embedder id prefix (model repo, revision excluded so a new revision keeps its calibration). */
	embedder: string;
	scale: number;
	offset: number;
	/** Where the numbers come from. */
	source: string;
}

/** The calibration table. Add a row when a new embedder is supported and measured. */
export const COSINE_CALIBRATIONS: readonly CosineCalibration[] = [
	{
		embedder: 'Xenova/all-MiniLM-L6-v2',
		scale: 1,
		offset: 0,
		source: 'identity: the seed floors are all-MiniLM-L6-v2 cosines (seed 000)',
	},
	{
		embedder: 'sentence-transformers/all-MiniLM-L6-v2',
		scale: 1,
		offset: 0,
		source: 'same weights as the Xenova export',
	},
];

/** The floor to apply for an embedder, or null when its cosines carry no meaning (test hashing embedder). */
export function calibratedFloor(
	embedder: EmbedderInfo,
	minilmFloor: number,
	table: readonly CosineCalibration[] = COSINE_CALIBRATIONS,
): { floor: number | null; calibrated: boolean } {
	if (!embedder.semantic) return { floor: null, calibrated: false };
	const row = table.find((c) => embedder.id === c.embedder || embedder.id.startsWith(`${c.embedder}@`));
	if (!row) return { floor: minilmFloor, calibrated: false };
	return { floor: Math.min(1, Math.max(-1, row.scale * minilmFloor + row.offset)), calibrated: true };
}
