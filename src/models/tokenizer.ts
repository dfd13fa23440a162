/**
 * BERT input encoding on top of @huggingface/tokenizers, which reads tokenizer.json offline and
 * matches the reference WordPiece ids but does no truncation or padding: both are done here, to
 * the model's own limit (manifest `maxTokens`), always keeping [CLS] and the final [SEP].
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { err, ok, type Result } from '../core/result';

/** One encoded input: token ids and segment (token type) ids of equal length. */
export interface EncodedInput {
	ids: number[];
	typeIds: number[];
}

/**
 * Upper bound on characters tokenised per text. A token covers at least one visible character,
 * so 16 per token leaves room for indentation and whitespace while keeping a 1 MB chunk from
 * costing a full tokenisation when only the first few hundred tokens survive truncation.
 */
const CHARS_PER_TOKEN_CAP = 16;

/** How many tokens of a (query, passage) pair survive, removing from the longer side first (HF "longest_first"). */
export function longestFirst(la: number, lb: number, budget: number): [number, number] {
	if (la + lb <= budget) return [la, lb];
	const half = Math.floor(budget / 2);
	if (la <= half) return [la, budget - la];
	if (lb <= half) return [budget - lb, lb];
	// Both long: ties remove from the second sequence, so the first keeps the odd token.
	return [budget - half, half];
}

/** Encodes texts and (query, passage) pairs for a BERT-family model with truncation. */
export class BertEncoder {
	private constructor(
		private readonly tok: Tokenizer,
		private readonly cls: number,
		private readonly sep: number,
		/** Id used for padding positions. */
		readonly padId: number,
		readonly maxTokens: number,
	) {}

	/** Reads tokenizer.json + tokenizer_config.json from a model folder. */
	static fromFolder(dir: string, maxTokens: number): Result<BertEncoder> {
		let json: unknown;
		let config: Record<string, unknown>;
		try {
			json = JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8'));
			config = JSON.parse(readFileSync(join(dir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
		} catch (e) {
			return err(`cannot read tokenizer files in ${dir}: ${(e as Error).message}`);
		}
		return BertEncoder.fromJson(json, config, maxTokens);
	}

	/** Builds an encoder from parsed tokenizer.json / tokenizer_config.json objects. */
	static fromJson(json: unknown, config: Record<string, unknown>, maxTokens: number): Result<BertEncoder> {
		let tok: Tokenizer;
		try {
			tok = new Tokenizer(json as object, config);
		} catch (e) {
			return err(`invalid tokenizer.json: ${(e as Error).message}`);
		}
		const idOf = (key: string, fallback: string) =>
			tok.token_to_id(typeof config[key] === 'string' ? (config[key] as string) : fallback);
		const cls = idOf('cls_token', '[CLS]');
		const sep = idOf('sep_token', '[SEP]');
		const pad = idOf('pad_token', '[PAD]');
		if (cls === undefined || sep === undefined)
			return err('tokenizer has no [CLS]/[SEP] token: not a BERT-style tokenizer');
		if (maxTokens < 4) return err(`maxTokens ${maxTokens} is too small`);
		return ok(new BertEncoder(tok, cls, sep, pad ?? 0, maxTokens));
	}

	private pieces(text: string): number[] {
		const capped =
			text.length > this.maxTokens * CHARS_PER_TOKEN_CAP ? text.slice(0, this.maxTokens * CHARS_PER_TOKEN_CAP) : text;
		return this.tok.encode(capped, { add_special_tokens: false }).ids;
	}

	/** `[CLS] text [SEP]`, truncated to maxTokens. */
	encode(text: string): EncodedInput {
		const body = this.pieces(text).slice(0, this.maxTokens - 2);
		const ids = [this.cls, ...body, this.sep];
		return { ids, typeIds: new Array<number>(ids.length).fill(0) };
	}

	/** `[CLS] a [SEP] b [SEP]` with segment ids 0/1, longest-first truncation to maxTokens. */
	encodePair(a: string, b: string): EncodedInput {
		const pa = this.pieces(a);
		const pb = this.pieces(b);
		const [na, nb] = longestFirst(pa.length, pb.length, this.maxTokens - 3);
		const first = [this.cls, ...pa.slice(0, na), this.sep];
		const second = [...pb.slice(0, nb), this.sep];
		return {
			ids: [...first, ...second],
			typeIds: [...new Array<number>(first.length).fill(0), ...new Array<number>(second.length).fill(1)],
		};
	}
}
