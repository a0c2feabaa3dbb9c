/*
 * textfp--1.0--1.1.sql: what 1.1 adds to 1.0.
 *
 * There is no textfp--1.1.sql: CREATE EXTENSION textfp runs textfp--1.0.sql
 * and then this script, so a fresh 1.1 and an updated 1.0 are the same
 * objects by construction.  Nothing here changes what a 1.0 object returns
 * for the same arguments (stored fingerprints and indexes stay valid); new
 * behaviour comes as new functions, new option values and new operator
 * classes.
 */

\echo Use "ALTER EXTENSION textfp UPDATE TO '1.1'" to load this file. \quit
