import { describe, expect, it } from 'vitest';
import { AppError } from '../../packages/server/src/errors.js';
import { filterValue, SAFE_INTEGER_RANGE } from '../../packages/server/src/domain/documents/filter-value.js';
import { parsePaging } from '../../packages/server/src/domain/shared/paging.js';

const REV = { type: 'integer', range: [-2_147_483_648, 2_147_483_647] } as const;

/** The 400 a refused value gives, or the typed value. */
function attempt(target: Parameters<typeof filterValue>[0], raw: string) {
  try {
    return { value: filterValue(target, raw, 'filter[x]') };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { status: err.status, code: err.code, field: err.details?.[0]?.field, message: err.message };
  }
}

const refused = { status: 400, code: 'INVALID_INPUT', field: 'filter[x]' };

describe('filterValue', () => {
  it.each(['1.5', '3000000000', '2147483648', '-2147483649', '1e400', '1e0', '', ' ', 'abc', '0x10', 'Infinity'])(
    'refuses %j for an integer column of 32 bits',
    (raw) => {
      expect(attempt(REV, raw)).toMatchObject(refused);
    },
  );

  it.each([
    ['1', 1],
    ['0', 0],
    ['-2147483648', -2_147_483_648],
    ['2147483647', 2_147_483_647],
  ])('accepts %j for an integer column of 32 bits', (raw, value) => {
    expect(attempt(REV, raw)).toEqual({ value });
  });

  it('integer fields take whole numbers within the safe range of a JSON number', () => {
    const field = { type: 'integer' } as const;
    expect(attempt(field, String(Number.MAX_SAFE_INTEGER))).toEqual({ value: Number.MAX_SAFE_INTEGER });
    expect(attempt(field, String(-Number.MAX_SAFE_INTEGER))).toEqual({ value: -Number.MAX_SAFE_INTEGER });
    expect(SAFE_INTEGER_RANGE).toEqual([-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);
    for (const raw of ['9007199254740992', '99999999999999999999', '1.5', '1e3', '1e400']) {
      expect(attempt(field, raw), raw).toMatchObject(refused);
    }
  });

  it('the message names the parameter and the range', () => {
    expect(attempt(REV, '3000000000')).toMatchObject({
      message: 'filter[x]: must be a whole number from -2147483648 to 2147483647',
    });
  });

  it('number fields take finite numbers only', () => {
    const field = { type: 'number' } as const;
    expect(attempt(field, '2.5')).toEqual({ value: 2.5 });
    expect(attempt(field, '1e300')).toEqual({ value: 1e300 });
    expect(attempt(field, '-1e2')).toEqual({ value: -100 });
    expect(attempt(field, '99999999999999999999')).toEqual({ value: 1e20 });
    for (const raw of ['1e400', '-1e400', 'Infinity', 'NaN', '', '0x10', '1,5', '.5']) {
      expect(attempt(field, raw), raw).toMatchObject({ ...refused, message: 'filter[x]: must be a finite number' });
    }
  });

  it('booleans are true or false', () => {
    expect(attempt({ type: 'boolean' }, 'true')).toEqual({ value: true });
    expect(attempt({ type: 'boolean' }, 'false')).toEqual({ value: false });
    expect(attempt({ type: 'boolean' }, '1')).toMatchObject(refused);
  });

  it('date-times are normalised to UTC; anything else is refused', () => {
    expect(attempt({ type: 'datetime' }, '2024-01-10T09:00:00+01:00')).toEqual({ value: '2024-01-10T08:00:00.000Z' });
    expect(attempt({ type: 'datetime' }, '2024-01-10')).toEqual({ value: '2024-01-10T00:00:00.000Z' });
    for (const raw of ['yesterday', '1700000000', '2024-13-45', '']) expect(attempt({ type: 'datetime' }, raw), raw).toMatchObject(refused);
  });

  it('dates are YYYY-MM-DD', () => {
    expect(attempt({ type: 'date' }, '2024-01-10')).toEqual({ value: '2024-01-10' });
    expect(attempt({ type: 'date' }, '2024-1-10')).toMatchObject(refused);
  });

  it('text stays as given, the empty string included', () => {
    expect(attempt({ type: 'string' }, '')).toEqual({ value: '' });
    expect(attempt({ type: 'string' }, '1e400')).toEqual({ value: '1e400' });
  });
});

describe('parsePaging', () => {
  it.each(['1e400', '99999999999999999999', '2147483648', '-1', '1.5', 'abc'])('refuses offset=%s naming offset', (raw) => {
    expect(() => parsePaging(undefined, raw)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', details: [expect.objectContaining({ field: 'offset' })] }),
    );
  });

  it('clamps limit to 100 and accepts the largest offset', () => {
    expect(parsePaging('1000', '2147483647')).toEqual({ limit: 100, offset: 2_147_483_647 });
  });
});
