/**
 * How venues spell outcomes that are not a team: draw/tie contracts and Yes/No contracts. Pure functions, used by
 * the pipeline for every source.
 */

const DRAW_WORDS = /^(?:the\s+)?(?:draw|tie|x|drawn|tied|a\s+draw|a\s+tie)$/;

/** Lower-case, accents and punctuation gone, single spaces. */
function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * True when a selection names the draw of a match, in the spellings venues use: `Draw`, `Tie`, `X`,
 * `Reg Time: Tie`, `Regulation Time Draw`, `Draw (90 min)`, `Will the match end in a draw?`, `Tie Game`.
 */
export function isDrawSelection(selection: string): boolean {
  let f = fold(selection);
  if (!f) return false;
  // Qualifiers of when the draw counts, not of what it is.
  f = f
    .replace(/\b(?:reg(?:ular)?(?:ulation)?|regulation)\s*(?:time)?\b/g, ' ')
    .replace(/\b(?:full\s*time|ft|90\s*min(?:utes)?|60\s*min(?:utes)?|after\s+90\s+minutes|in\s+regulation)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (DRAW_WORDS.test(f)) return true;
  if (/^(?:tie|draw)\s+game$/.test(f)) return true;
  return (
    /^will\s+(?:the\s+)?(?:match|game)\s+(?:end\s+in\s+)?(?:a\s+)?(?:draw|tie)$/.test(f) ||
    /^(?:match|game)\s+(?:ends?\s+in\s+)?(?:a\s+)?(?:draw|tie)$/.test(f)
  );
}

export interface Contract {
  /** 'yes' or 'no' when the selection is one side of a Yes/No contract; null otherwise. */
  answer: 'yes' | 'no' | null;
  /** What the contract is about, the Yes/No and question wrapping removed (`Will Arsenal win?: No` -> `Arsenal`). */
  subject: string;
}

/**
 * Reads a Yes/No contract from its selection and selection type: `home_yes`/`away_no`, a selection type `yes`/`no`,
 * or a selection ending (or starting) with Yes/No (`Arsenal: No`, `Will Arsenal win? - Yes`, `No - Arsenal`).
 * A plain selection is not a contract (answer null, subject unchanged).
 */
export function readContract(selection: string, selectionType: string): Contract {
  const st = selectionType.toLowerCase();
  let answer: 'yes' | 'no' | null = st === 'yes' || st.endsWith('_yes') ? 'yes' : st === 'no' || st.endsWith('_no') ? 'no' : null;
  let subject = selection.trim();
  const tail = /^(.*?)[\s:?(\-\u2013|/,]+(yes|no)\)?\s*$/i.exec(subject);
  const head = /^(yes|no)[\s:\-\u2013|/,]+(.+)$/i.exec(subject);
  if (tail && tail[1]) {
    answer ??= tail[2]!.toLowerCase() as 'yes' | 'no';
    if (tail[2]!.toLowerCase() === answer) subject = tail[1];
  } else if (head) {
    answer ??= head[1]!.toLowerCase() as 'yes' | 'no';
    if (head[1]!.toLowerCase() === answer) subject = head[2]!;
  }
  if (answer) {
    subject = subject
      .replace(/^\s*will\s+(?:the\s+)?/i, '')
      .replace(/\s+(?:win|beat\b.*|to\s+win.*|win\s+the\s+(?:match|game).*)\s*\??\s*$/i, '')
      .replace(/[\s?:]+$/, '')
      .trim();
  }
  return { answer, subject: subject || selection.trim() };
}
