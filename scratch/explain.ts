import pg from 'pg';
import { streamColumns } from '/work/main/src/modules/streams/stream.presenter.ts';
const c = new pg.Client('postgres://postgres@127.0.0.1:5432/nw_explain'); await c.connect();
const cols = streamColumns('st');
const q = `explain (analyze, buffers) select (select json_agg(c) from (
    (select ${cols} from streams st where st.active and st.health <> 'offline' order by st.created_at desc, st.id desc limit 5)
    union all
    (select ${cols} from streams st where st.active and st.health = 'offline' order by st.created_at desc, st.id desc limit 5)) c)`;
for (let i=0;i<3;i++) { const r = await c.query(q); if (i==2) console.log(r.rows.map(x=>x['QUERY PLAN']).join('\n')); }
await c.end();
