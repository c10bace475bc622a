/** The playlist reader, from real-shaped lines (iptv-org, Kodi, VLC). */
import { describe, expect, it } from 'vitest';
import { isM3u, parseM3u } from '../../src/modules/discovery/adapters/m3u.ts';
import { needsRequestHeaders } from '../../src/shared/streams/request-headers.ts';

const one = (text: string) => {
  const entries = parseM3u(`#EXTM3U\n${text}`);
  expect(entries).toHaveLength(1);
  return entries[0]!;
};

describe('parseM3u', () => {
  it('reads iptv-org attributes and the name', () => {
    const entry = one('#EXTINF:-1 tvg-id="ExploreBears.us@SD" tvg-name="Explore Bears" tvg-logo="https://i.imgur.com/b.png" group-title="Outdoor",Explore.org Brown Bear Cam (720p)\nhttps://cdn.example.org/bears/index.m3u8');
    expect(entry).toMatchObject({
      line: 3,
      url: 'https://cdn.example.org/bears/index.m3u8',
      name: 'Explore.org Brown Bear Cam (720p)',
      group: 'Outdoor',
      attributes: { 'tvg-id': 'ExploreBears.us@SD', 'tvg-name': 'Explore Bears', 'tvg-logo': 'https://i.imgur.com/b.png', 'group-title': 'Outdoor' },
      headers: { user_agent: null, referrer: null },
    });
  });

  it.each([
    ['a comma inside a quoted attribute', '#EXTINF:-1 tvg-name="Reef, Live" group-title="Outdoor;Weather",Coral Reef Cam', 'Coral Reef Cam', 'Outdoor;Weather'],
    ['a comma in the name itself', '#EXTINF:-1 group-title="Outdoor",Brooks Falls, Alaska', 'Brooks Falls, Alaska', 'Outdoor'],
    ['no attributes', '#EXTINF:-1,Just a name', 'Just a name', null],
    ['no name', '#EXTINF:-1 tvg-id="x"', null, null],
    ['a positive duration', '#EXTINF:3600 group-title="Relax",Aurora', 'Aurora', 'Relax'],
    ['#EXTGRP when there is no group-title', '#EXTINF:-1,Lake cam\n#EXTGRP:Nature', 'Lake cam', 'Nature'],
  ])('%s', (_rule, lines, name, group) => {
    const entry = one(`${lines}\nhttps://a.example.org/x.m3u8`);
    expect(entry.name).toBe(name);
    expect(entry.group).toBe(group);
  });

  it.each([
    ['#EXTVLCOPT user-agent and referrer', '#EXTINF:-1,Cam\n#EXTVLCOPT:http-user-agent=Mozilla/5.0 (Windows NT 10.0)\n#EXTVLCOPT:http-referrer=https://www.example.org/', 'Mozilla/5.0 (Windows NT 10.0)', 'https://www.example.org/'],
    ['#EXTVLCOPT referer spelt the HTTP way', '#EXTINF:-1,Cam\n#EXTVLCOPT:http-referer=https://r.example.org/', null, 'https://r.example.org/'],
    ['user-agent and referrer attributes', '#EXTINF:-1 user-agent="VLC/3.0" referrer="https://ref.example.org/",Cam', 'VLC/3.0', 'https://ref.example.org/'],
    ['Kodi stream headers', '#EXTINF:-1,Cam\n#KODIPROP:inputstream.adaptive.stream_headers=User-Agent=Kodi%2F20&Referer=https://k.example.org/', 'Kodi/20', 'https://k.example.org/'],
    ['#EXTHTTP JSON', '#EXTINF:-1,Cam\n#EXTHTTP:{"User-Agent":"Json/1","Cookie":"x"}', 'Json/1', null],
  ])('keeps %s', (_rule, lines, userAgent, referrer) => {
    const entry = one(`${lines}\nhttps://a.example.org/x.m3u8`);
    expect(entry.headers).toEqual({ user_agent: userAgent, referrer });
    expect(needsRequestHeaders(entry.headers)).toBe(true);
  });

  it('reads Kodi\'s url|headers suffix and keeps the address clean', () => {
    const entry = one('#EXTINF:-1,Cam\nhttps://a.example.org/x.m3u8|User-Agent=Pipe%2F1&Referer=https://p.example.org/');
    expect(entry.url).toBe('https://a.example.org/x.m3u8');
    expect(entry.headers).toEqual({ user_agent: 'Pipe/1', referrer: 'https://p.example.org/' });
  });

  it('keeps entries of every scheme, so the caller can count what it cannot use', () => {
    const entries = parseM3u('#EXTM3U\n#EXTINF:-1,RTMP cam\nrtmp://live.example.org/app/stream\n#EXTINF:-1,RTSP cam\nrtsp://10.0.0.5/ch1\n#EXTINF:-1,MMS\nmmsh://old.example.org/x\n#EXTINF:-1,Good\nhttps://a.example.org/x.m3u8');
    expect(entries.map((e) => [e.name, e.url])).toEqual([
      ['RTMP cam', 'rtmp://live.example.org/app/stream'],
      ['RTSP cam', 'rtsp://10.0.0.5/ch1'],
      ['MMS', 'mmsh://old.example.org/x'],
      ['Good', 'https://a.example.org/x.m3u8'],
    ]);
  });

  it('keeps duplicates (the job counts them) and does not carry one entry\'s options to the next', () => {
    const entries = parseM3u('#EXTM3U\r\n#EXTINF:-1,A\r\n#EXTVLCOPT:http-user-agent=UA\r\nhttps://a.example.org/1.m3u8\r\n#EXTINF:-1,A again\r\nhttps://a.example.org/1.m3u8\r\n');
    expect(entries.map((e) => [e.name, e.url, e.headers.user_agent])).toEqual([
      ['A', 'https://a.example.org/1.m3u8', 'UA'],
      ['A again', 'https://a.example.org/1.m3u8', null],
    ]);
  });

  it('reads a plain list of addresses, a byte-order mark and blank lines', () => {
    expect(parseM3u('\uFEFF#EXTM3U\n\nhttps://a.example.org/1.m3u8\n\n  https://a.example.org/2.m3u8  \n').map((e) => [e.name, e.url])).toEqual([
      [null, 'https://a.example.org/1.m3u8'],
      [null, 'https://a.example.org/2.m3u8'],
    ]);
  });

  it('recognises a playlist by its first line', () => {
    expect(isM3u('\uFEFF  #EXTM3U x-tvg-url="a"')).toBe(true);
    expect(isM3u('<html>')).toBe(false);
  });
});
