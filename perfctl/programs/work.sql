-- perfctl/programs/sqlite3.sh's workload for the sqlite3 shell; the recipe puts
-- 'CREATE TABLE cfg(n); INSERT INTO cfg VALUES(N);' first (N rows).
-- Deterministic: no random(), no clock; temp_store = MEMORY because temp
-- files are named with random hex digits (formatted by sqlite3_str_vappendf).
PRAGMA temp_store = MEMORY;
CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL);
CREATE TABLE k(a INTEGER PRIMARY KEY, name TEXT);
BEGIN;
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < (SELECT n FROM cfg))
INSERT INTO t SELECT i, (i * 7919) % 1000, printf('w%05d-%s', (i * 104729) % 50000, substr('abcdefghij', 1 + i % 10, 3)), (i % 997) * 1.5 FROM s;
INSERT INTO k SELECT i, 'k' || i FROM (WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 999) SELECT i FROM s);
COMMIT;
CREATE INDEX t_a ON t(a);
CREATE INDEX t_b ON t(b);
SELECT count(*), sum(a), total(c), min(b), max(b) FROM t;
SELECT a, count(*), avg(c), group_concat(DISTINCT substr(b, 8)) FROM t WHERE a < 20 GROUP BY a ORDER BY a;
SELECT k.name, count(*), sum(t.c) FROM t JOIN k ON t.a = k.a WHERE k.a % 97 = 3 GROUP BY k.name ORDER BY 2 DESC, 1 LIMIT 15;
SELECT substr(b, 1, 4) AS p, count(*), max(id) FROM t GROUP BY p ORDER BY p LIMIT 12;
SELECT count(*) FROM t AS x JOIN t AS y ON x.b = y.b AND x.id < y.id;
SELECT a, c, id FROM t WHERE b LIKE 'w123%' ORDER BY id;
UPDATE t SET c = c * 2 WHERE a BETWEEN 100 AND 199;
DELETE FROM t WHERE id % 5 = 0;
SELECT count(*), sum(c) FROM t;
WITH RECURSIVE fib(n, x, y) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, y, x + y FROM fib WHERE n < 80) SELECT n, x FROM fib WHERE n % 10 = 0;
WITH RECURSIVE tree(id, depth, path) AS (SELECT 1, 0, '1' UNION ALL SELECT t.id, tree.depth + 1, tree.path || '/' || t.id FROM t JOIN tree ON t.id = tree.id * 2 OR t.id = tree.id * 2 + 1 WHERE tree.depth < 12) SELECT depth, count(*), max(length(path)) FROM tree GROUP BY depth;
SELECT a, rank() OVER (ORDER BY sum(c) DESC) FROM t GROUP BY a ORDER BY 2 LIMIT 5;
SELECT json_group_array(a) FROM (SELECT DISTINCT a FROM t WHERE a < 30 ORDER BY a);
