/** Screen groups, placements, schedules and the takeover over REST: rules, clear 400s, the Activity log. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityDto, AssignmentDto, ErrorDto, ProgrammePreviewDto, ScheduleDto, ScreenGroupDto, TakeoverDto } from '../../src/shared/api/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildScene } from '../support/factories.ts';

let app: TestApp;
let ocean: number;
let volcano: number;
let retired: number;
beforeAll(async () => {
  app = await startTestApp();
  const em = app.orm.em.fork();
  ocean = (await buildScene(em, { name: 'Ocean mornings' })).id;
  volcano = (await buildScene(em, { name: 'Volcano talk' })).id;
  retired = (await buildScene(em, { name: 'Retired', active: false })).id;
});
afterAll(async () => app?.close());

const weekly = (over: Record<string, unknown> = {}) => ({ kind: 'weekly', days: [1, 2, 3, 4, 5], start: '09:00', end: '12:00', time_zone: 'Europe/Berlin', ...over });
const errorOf = (res: { body: unknown }) => (res.body as ErrorDto).error;

describe('screen groups', () => {
  let lobby: ScreenGroupDto;
  it('creates a group with a slug screens join by, and its own scene', async () => {
    const res = await app.request<ScreenGroupDto>('POST', '/api/screen-groups', { name: 'Lobby', scene_id: ocean });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    lobby = res.body;
    expect(lobby).toMatchObject({ name: 'Lobby', slug: 'lobby', scene_id: ocean, devices: [] });
    expect(app.published).toContainEqual(expect.objectContaining({ type: 'screen-group.created', groupId: lobby.id }));
  });

  it('refuses a second group of the same name (409), a nameless one, and an inactive or missing scene (400)', async () => {
    expect((await app.request('POST', '/api/screen-groups', { name: 'lobby' })).status).toBe(409);
    const nameless = await app.request('POST', '/api/screen-groups', { name: '★' });
    expect([nameless.status, errorOf(nameless)]).toEqual([400, expect.stringContaining('needs a letter or a digit')]);
    const inactive = await app.request('POST', '/api/screen-groups', { name: 'Gallery', scene_id: retired });
    expect([inactive.status, errorOf(inactive)]).toEqual([409, expect.stringContaining('is deleted')]);
    const missing = await app.request('POST', '/api/screen-groups', { name: 'Gallery', scene_id: 999_999 });
    expect([missing.status, errorOf(missing)]).toEqual([404, 'Scene 999999 does not exist']);
  });

  it('places a screen in a group and gives another its own scene; the group lists its screens', async () => {
    const placed = await app.request<AssignmentDto>('PUT', '/api/screen-groups/assignments', { device: 'lobby-left-0001', group_id: lobby.id });
    expect(placed.body).toEqual({ device: 'lobby-left-0001', group_id: lobby.id, scene_id: null });
    const own = await app.request<AssignmentDto>('PUT', '/api/screen-groups/assignments', { device: 'hall-screen-01', scene_id: volcano });
    expect(own.body).toEqual({ device: 'hall-screen-01', group_id: null, scene_id: volcano });
    const groups = (await app.request<ScreenGroupDto[]>('GET', '/api/screen-groups')).body;
    expect(groups.find((g) => g.id === lobby.id)?.devices).toEqual(['lobby-left-0001']);
    const bad = await app.request('PUT', '/api/screen-groups/assignments', { device: 'x', group_id: 999_999 });
    expect(bad.status).toBe(400);
    const noGroup = await app.request('PUT', '/api/screen-groups/assignments', { device: 'lobby-right-001', group_id: 999_999 });
    expect([noGroup.status, errorOf(noGroup)]).toEqual([404, 'Screen group 999999 does not exist']);
  });
});

describe('schedules', () => {
  let groupId: number;
  beforeAll(async () => {
    groupId = (await app.request<ScreenGroupDto>('POST', '/api/screen-groups', { name: 'Gallery' })).body.id;
  });

  it('adds weekly and one-off entries and lists them by priority', async () => {
    const mornings = await app.request<ScheduleDto>('POST', '/api/schedules', { scene_id: ocean, target: { kind: 'groups', group_ids: [groupId] }, when: weekly() });
    expect(mornings.status, JSON.stringify(mornings.body)).toBe(201);
    expect(mornings.body).toMatchObject({ scene_id: ocean, priority: 0, target: { kind: 'groups', group_ids: [groupId] }, when: { kind: 'weekly', overnight: false } });
    const talk = await app.request<ScheduleDto>('POST', '/api/schedules', {
      name: 'Director speaks', scene_id: volcano, priority: 10, target: { kind: 'all' },
      when: { kind: 'once', starts_at: '2026-11-23T13:00:00.000Z', ends_at: '2026-11-23T14:00:00.000Z' },
    });
    expect(talk.status).toBe(201);
    const list = (await app.request<ScheduleDto[]>('GET', '/api/schedules')).body;
    expect(list.map((e) => e.id)).toEqual([talk.body.id, mornings.body.id]);
  });

  it.each([
    ['an end before the start without the overnight mark', { when: weekly({ start: '22:00', end: '02:00' }) }, 'when.end: The end must be after the start (or mark the window as overnight)'],
    ['an unknown time zone', { when: weekly({ time_zone: 'Mars/Olympus' }) }, 'when.time_zone: Unknown time zone: use an IANA name such as Europe/Berlin'],
    ['a one-off ending before it starts', { when: { kind: 'once', starts_at: '2026-11-23T14:00:00.000Z', ends_at: '2026-11-23T13:00:00.000Z' } }, 'when.ends_at: The end must be after the start'],
    ['a priority out of range', { priority: 101 }, 'priority: Priority is 0–100'],
    ['a malformed time', { when: weekly({ start: '9am' }) }, 'when.start: Expected a time as HH:MM (00:00–23:59)'],
    ['no days', { when: weekly({ days: [] }) }, 'when.days: Choose at least one day'],
  ])('refuses %s with a 400 that says why', async (_name, change, message) => {
    const res = await app.request('POST', '/api/schedules', { scene_id: ocean, target: { kind: 'all' }, when: weekly(), ...change });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(errorOf(res)).toBe(message);
  });

  it('refuses a scene that does not exist or is deleted, and a target group that does not exist', async () => {
    const deleted = await app.request('POST', '/api/schedules', { scene_id: retired, target: { kind: 'all' }, when: weekly() });
    expect([deleted.status, errorOf(deleted)]).toEqual([409, 'Scene "Retired" is deleted; choose an active scene']);
    const group = await app.request('POST', '/api/schedules', { scene_id: ocean, target: { kind: 'groups', group_ids: [999_999] }, when: weekly() });
    expect([group.status, errorOf(group)]).toEqual([404, 'target.group_ids: Screen group 999999 does not exist']);
  });

  it('an overnight window is fine', async () => {
    const res = await app.request<ScheduleDto>('POST', '/api/schedules', { scene_id: ocean, target: { kind: 'all' }, when: weekly({ start: '22:00', end: '02:00', overnight: true }) });
    expect(res.status).toBe(201);
    await app.request('DELETE', '/api/schedules', { id: res.body.id });
  });

  it('previews an instant: the one-off talk for every screen, the group its morning entry', async () => {
    const during = (await app.request<ProgrammePreviewDto>('GET', '/api/schedules/preview?at=2026-11-23T13:30:00.000Z')).body;
    expect(during.ungrouped).toEqual({ scene_id: volcano, rule: 'schedule', schedule_id: expect.any(Number) });
    // 14:30 Berlin is after the group's mornings: the building-wide talk.
    expect(during.groups.find((g) => g.group_id === groupId)).toMatchObject({ scene_id: volcano, rule: 'schedule' });
    const morning = (await app.request<ProgrammePreviewDto>('GET', '/api/schedules/preview?at=2026-11-23T09:30:00.000Z')).body;
    expect(morning.groups.find((g) => g.group_id === groupId)).toMatchObject({ scene_id: ocean, rule: 'group-schedule' });
    expect(morning.next_change).toBe('2026-11-23T11:00:00.000Z');
    expect((await app.request('GET', '/api/schedules/preview?at=yesterday')).status).toBe(400);
  });

  it('a group a schedule targets cannot be deleted, and a scene a schedule shows cannot be deleted — each says why', async () => {
    const group = await app.request('DELETE', '/api/screen-groups', { id: groupId });
    expect([group.status, errorOf(group)]).toEqual([409, expect.stringContaining('is the target of a schedule entry')]);
    const scene = await app.request('DELETE', '/api/scenes', { id: ocean });
    expect([scene.status, errorOf(scene)]).toEqual([409, expect.stringContaining('"Ocean mornings" cannot be deleted: ')]);
  });
});

describe('takeover', () => {
  it('starts on every screen with a banner, is read back, is logged, and is released', async () => {
    const started = await app.request<TakeoverDto>('PUT', '/api/takeover', { scene_id: volcano, banner: 'The director speaks at 15:00' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body).toMatchObject({ scene_id: volcano, banner: 'The director speaks at 15:00', group_ids: null, ends_at: null });
    expect((await app.request<{ takeover: TakeoverDto | null }>('GET', '/api/takeover')).body.takeover?.scene_id).toBe(volcano);
    const inUse = await app.request('DELETE', '/api/scenes', { id: volcano });
    expect([inUse.status, errorOf(inUse)]).toEqual([409, expect.stringContaining('The takeover shows this scene')]);
    expect((await app.request('DELETE', '/api/takeover')).status).toBe(200);
    expect((await app.request('GET', '/api/takeover')).body).toEqual({ takeover: null });
    const log = (await app.request<ActivityDto[]>('GET', '/api/activity?limit=20')).body.map((a) => a.action);
    expect(log).toEqual(expect.arrayContaining(['takeover.started', 'takeover.released', 'schedule.created', 'screen-group.created', 'screen.placed']));
  });

  it('refuses a past end, a missing group and a deleted scene', async () => {
    expect(errorOf(await app.request('PUT', '/api/takeover', { scene_id: volcano, ends_at: '2020-01-01T00:00:00.000Z' }))).toBe('ends_at: The end must be in the future');
    expect(errorOf(await app.request('PUT', '/api/takeover', { scene_id: volcano, group_ids: [999_999] }))).toBe('group_ids: a chosen screen group does not exist');
    expect((await app.request('PUT', '/api/takeover', { scene_id: retired })).status).toBe(409);
  });

  it('is for administrators only', async () => {
    expect((await app.anonymous('PUT', '/api/takeover', { scene_id: volcano })).status).toBe(401);
    expect((await app.anonymous('GET', '/api/screen-groups')).status).toBe(401);
  });
});
