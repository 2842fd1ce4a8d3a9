import pg from 'pg';
const c = new pg.Client({ connectionString: process.argv[2] });
await c.connect();
const sql = process.argv[3];
const t = Date.now();
const r = await c.query('explain analyze ' + sql);
console.log(r.rows.map(x => x['QUERY PLAN']).join('\n'));
await c.end();
