/**
 * A small typed reader over untrusted config input. Each getter records a problem line
 * (`path: expected …`) instead of throwing, so start-up can report every problem at once.
 */
export class ConfigReader {
  readonly problems: string[] = [];

  problem(path: string, message: string): void {
    this.problems.push(`${path}: ${message}`);
  }

  object(path: string, value: unknown, known?: readonly string[]): Record<string, unknown> {
    if (value === undefined || value === null) return {};
    if (typeof value !== 'object' || Array.isArray(value)) {
      this.problem(path, 'expected an object');
      return {};
    }
    const obj = value as Record<string, unknown>;
    if (known) {
      for (const key of Object.keys(obj)) {
        if (!known.includes(key)) this.problem(path ? `${path}.${key}` : key, 'unknown setting');
      }
    }
    return obj;
  }

  string(path: string, value: unknown, opts: { def?: string; minLength?: number } = {}): string | undefined {
    if (value === undefined || value === null) return opts.def;
    if (typeof value !== 'string') {
      this.problem(path, 'expected a string');
      return opts.def;
    }
    if (opts.minLength !== undefined && value.length < opts.minLength) {
      this.problem(path, `expected a string of at least ${opts.minLength} characters`);
    }
    return value;
  }

  int(path: string, value: unknown, opts: { def?: number; min?: number; max?: number } = {}): number | undefined {
    if (value === undefined || value === null || value === '') return opts.def;
    const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    const bounds = [opts.min !== undefined ? `≥ ${opts.min}` : '', opts.max !== undefined ? `≤ ${opts.max}` : '']
      .filter(Boolean)
      .join(' and ');
    const outOfRange = typeof n === 'number' && ((opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max));
    if (typeof n !== 'number' || !Number.isInteger(n) || outOfRange) {
      this.problem(path, `expected integer${bounds ? ` ${bounds}` : ''}`);
      return opts.def;
    }
    return n;
  }

  bool(path: string, value: unknown, def: boolean): boolean {
    if (value === undefined || value === null) return def;
    if (value === 'true') return true;
    if (value === 'false') return false;
    if (typeof value !== 'boolean') {
      this.problem(path, 'expected true or false');
      return def;
    }
    return value;
  }

  func<T extends (...args: never[]) => unknown>(path: string, value: unknown): T | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'function') {
      this.problem(path, 'expected a function (hooks need a .js, .mjs or .ts config file)');
      return undefined;
    }
    return value as T;
  }
}
