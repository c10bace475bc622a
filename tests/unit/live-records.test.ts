/** The console's one merge rule for pushed and fetched state, one row per rule. */
import { describe, expect, it } from 'vitest';
import { applyFetch, applyFetchOne, applyPush, applyVersioned, emptyRecords, liveValues, type LiveRecords } from '../../src/shared/live-records.ts';

type Row = { id: number; name: string };
const key = (r: Row) => r.id;
const names = (records: LiveRecords<Row>) => liveValues(records).map((r) => `${r.id}:${r.name}`).sort();

describe('live records', () => {
  it('applies a push only when it is newer than what set the record', () => {
    let r = applyPush(emptyRecords<Row>(), 1, { id: 1, name: 'a' }, 5);
    r = applyPush(r, 1, { id: 1, name: 'older' }, 4);
    expect(names(r)).toEqual(['1:a']);
    r = applyPush(r, 1, { id: 1, name: 'b' }, 6);
    expect(names(r)).toEqual(['1:b']);
  });

  it('keeps a deletion, so a late push cannot bring the record back', () => {
    let r = applyPush(emptyRecords<Row>(), 1, { id: 1, name: 'a' }, 5);
    r = applyPush(r, 1, null, 7);
    r = applyPush(r, 1, { id: 1, name: 'late update' }, 6);
    expect(names(r)).toEqual([]);
  });

  it('lets a push that arrived while the fetch was on its way win over the fetch', () => {
    // The fetch started when version 10 was the newest seen; version 11 arrived before its answer.
    let r = applyPush(emptyRecords<Row>(), 2, { id: 2, name: 'renamed at 11' }, 11);
    r = applyPush(r, 3, { id: 3, name: 'created at 12' }, 12);
    r = applyFetch(r, [{ id: 1, name: 'x' }, { id: 2, name: 'old name' }], key, 10);
    expect(names(r)).toEqual(['1:x', '2:renamed at 11', '3:created at 12']);
  });

  it('lets a fetch replace what older pushes set, and drop what it no longer has', () => {
    let r = applyPush(emptyRecords<Row>(), 2, { id: 2, name: 'pushed at 8' }, 8);
    r = applyPush(r, 4, { id: 4, name: 'pushed at 9' }, 9);
    r = applyFetch(r, [{ id: 2, name: 'fresh' }], key, 10);
    expect(names(r)).toEqual(['2:fresh']);
  });

  it('does not bring back a record deleted by a push newer than the fetch', () => {
    let r = applyPush(emptyRecords<Row>(), 5, null, 12);
    r = applyFetch(r, [{ id: 5, name: 'still in the old read' }], key, 10);
    expect(names(r)).toEqual([]);
  });

  it('merges a page without dropping the records it does not hold', () => {
    let r = applyFetch(emptyRecords<Row>(), [{ id: 1, name: 'a' }, { id: 2, name: 'b' }], key, 3);
    r = applyFetch(r, [{ id: 3, name: 'c' }], key, 4, false);
    expect(names(r)).toEqual(['1:a', '2:b', '3:c']);
  });

  it('fetches one record by the same rule', () => {
    let r = applyPush(emptyRecords<Row>(), 7, { id: 7, name: 'pushed' }, 12);
    r = applyFetchOne(r, 7, { id: 7, name: 'fetched earlier' }, 10);
    expect(names(r)).toEqual(['7:pushed']);
    r = applyFetchOne(r, 7, { id: 7, name: 'fetched later' }, 12);
    expect(names(r)).toEqual(['7:fetched later']);
    r = applyFetchOne(r, 7, null, 14);
    expect(names(r)).toEqual([]);
  });

  it('applies one live value by the same rule', () => {
    const pushed = applyVersioned(null, 'ocean', 12);
    expect(applyVersioned(pushed, 'fetched earlier', 10)).toEqual({ value: 'ocean', version: 12 });
    expect(applyVersioned(pushed, 'newer', 13)).toEqual({ value: 'newer', version: 13 });
  });
});
