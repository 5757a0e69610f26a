-- Dot-commands: schema listing, settings, output redirection, parameters.
CREATE TABLE t1(a INTEGER PRIMARY KEY, b TEXT NOT NULL, c REAL DEFAULT 1.5);
CREATE TABLE "odd name"(x, "y z");
CREATE TABLE seq(id INTEGER PRIMARY KEY AUTOINCREMENT, v);
CREATE TABLE wr(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
CREATE INDEX t1b ON t1(b);
CREATE UNIQUE INDEX t1c ON t1(c DESC);
CREATE VIEW v1 AS SELECT a, b AS bee FROM t1;
CREATE TRIGGER tr1 AFTER INSERT ON t1 BEGIN INSERT INTO seq(v) VALUES(new.b); END;
CREATE TABLE long_one(first_column_name INTEGER, second_column_name TEXT, third_column_name BLOB, fourth REAL);
INSERT INTO t1(b, c) VALUES('one', 1), ('two', 2);
.tables
.tables t%
.tables nomatch
.indexes
.indexes t1
.indices wr
.indexes a b
.schema
.schema t1
.schema T%
.schema --indent long_one
.schema --indent
.schema --nosys
.schema sqlite_master
.schema --bogus
.schema a b
.databases
.fullschema
.fullschema --indent
.print hello "quoted arg" 'single quoted' back\tslash
.print
.echo on
SELECT 1;
.echo off
.headers on
.nullvalue ~
SELECT NULL AS n;
.headers off
.nullvalue
.show extra
.changes on
INSERT INTO seq(v) VALUES(3);
UPDATE t1 SET c = 2;
.changes off
.bail
.echo
.headers
.nullvalue
.separator
.timer
.eqp on
SELECT * FROM t1 WHERE a = 1;
.eqp off
.explain on
.show
.explain off
.explain auto
.parameter set :x 42
.parameter set @y 'hello'
.parameter set $z 2.5
.parameter list
SELECT :x, @y, $z, :missing;
.parameter unset @y
.parameter list
.parameter clear
.parameter list
SELECT :x;
.parameter bogus
.output out.txt
SELECT 'to file';
.print printed to file
.output
SELECT 'back on stdout';
.once once.txt
SELECT 'once';
SELECT 'after once';
.read nonexistent.sql
.read |echo "SELECT 'from pipe';"
.output |cat
SELECT 'through cat';
.output stdout
.system echo from system
.shell echo from shell
.help
.help mode
.help -all
.help imp
.help zzzz
.help dump
.nosuchcommand
.bogus with args
.
.headers maybe
.cd /nonexistent_dir
.open --new
.tables
.exit
SELECT 'not reached';
