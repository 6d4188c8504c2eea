import { describe, expect, it } from 'vitest';
import { parseInstant, scheduleInstant } from '../../packages/server/src/domain/schedules/schedule-time.js';

/** The instants schedules take (docs/schedules.md): RFC 3339 date-times with an offset, stored in UTC. */
describe('parseInstant', () => {
  it('answers the instant in UTC for a date-time with Z or an offset, with or without seconds and fractions', () => {
    expect(parseInstant('2030-01-31T09:00:00Z')).toBe('2030-01-31T09:00:00.000Z');
    expect(parseInstant('2030-01-31T10:30+01:30')).toBe('2030-01-31T09:00:00.000Z');
    expect(parseInstant('2030-01-31t09:00:00.123456z')).toBe('2030-01-31T09:00:00.123Z');
    expect(parseInstant('2028-02-29T00:00:00-05:00')).toBe('2028-02-29T05:00:00.000Z');
  });

  it('refuses text that is not one: no offset, impossible dates and times, other formats', () => {
    for (const raw of [
      '2030-01-31T09:00:00',
      '2030-01-31',
      '2030-02-30T09:00:00Z',
      '2029-02-29T09:00:00Z',
      '2030-13-01T09:00:00Z',
      '2030-01-31T24:00:00Z',
      '2030-01-31T09:60:00Z',
      '2030-01-31T09:00:00+25:00',
      'tomorrow',
      '1893456000000',
      ' 2030-01-31T09:00:00Z',
    ]) {
      expect(parseInstant(raw), raw).toBeUndefined();
    }
  });
});

describe('scheduleInstant', () => {
  const now = new Date('2030-01-01T00:00:00.000Z');
  it('takes an instant after now', () => {
    expect(scheduleInstant('2030-01-01T00:00:00.001Z', now)).toEqual({ at: '2030-01-01T00:00:00.001Z' });
  });
  it('refuses now and earlier, and what is not a date-time, with the reason', () => {
    expect(scheduleInstant('2030-01-01T00:00:00Z', now)).toEqual({ error: 'must be in the future' });
    expect(scheduleInstant('2029-12-31T23:59:59Z', now)).toEqual({ error: 'must be in the future' });
    expect(scheduleInstant('soon', now)).toMatchObject({ error: expect.stringMatching(/RFC 3339/) });
  });
});
