/**
 * Finds a key written twice in one JSON object. `JSON.parse` silently keeps the last
 * value, so a platform file with two `hopLatencyCycles` would run with whichever came
 * second; the loader refuses it instead, naming the key and both lines.
 */

/** A key that appears twice in one object: its dotted path and the two lines. */
export interface DuplicateKey {
  path: string;
  firstLine: number;
  secondLine: number;
}

interface Frame {
  /** Keys seen so far in this object (with their lines); null for an array. */
  keys: Map<string, number> | null;
  /** The path of this object or array. */
  path: string;
  /** For an array: the index of the element being read. */
  index: number;
  /** For an object: the key whose value is being read. */
  key: string | null;
}

/**
 * The first duplicate key in `text`, or null. `text` must be valid JSON (the caller
 * has parsed it already); this scanner only follows strings and brackets.
 */
export function findDuplicateKey(text: string): DuplicateKey | null {
  const stack: Frame[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    else if (c === '{' || c === '[') {
      const top = stack.at(-1);
      const path = top === undefined ? '' : childPath(top);
      stack.push({ keys: c === '{' ? new Map() : null, path, index: 0, key: null });
    } else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') {
      const top = stack.at(-1);
      if (top !== undefined) {
        top.index++;
        top.key = null;
      }
    } else if (c === '"') {
      let j = i + 1;
      let raw = '';
      while (text[j] !== '"') {
        if (text[j] === '\\') {
          raw += text.slice(j, j + 2);
          j += 2;
        } else raw += text[j++];
      }
      i = j;
      const top = stack.at(-1);
      if (top?.keys != null && top.key === null) {
        const key = JSON.parse(`"${raw}"`) as string;
        const seen = top.keys.get(key);
        if (seen !== undefined) return { path: top.path === '' ? key : `${top.path}.${key}`, firstLine: seen, secondLine: line };
        top.keys.set(key, line);
        top.key = key;
      }
    }
  }
  return null;
}

function childPath(frame: Frame): string {
  const step = frame.keys === null ? String(frame.index) : (frame.key ?? '');
  return frame.path === '' ? step : `${frame.path}.${step}`;
}
