-- textfp.hamming_threshold drives the % operator
-- (like any extension setting, it shows once the library is loaded)
SELECT hamming_distance('0000000000000000', '0000000000000000');
SHOW textfp.hamming_threshold;
SELECT '0000000000000000'::simhash64 % '00000000000007ff' AS d11;
SET textfp.hamming_threshold = 11;
SELECT '0000000000000000'::simhash64 % '00000000000007ff' AS d11;
SET textfp.hamming_threshold = 0;
SELECT '0000000000000000'::simhash64 % '0000000000000000' AS same,
       '0000000000000000'::simhash64 % '0000000000000001' AS d1;
SET textfp.hamming_threshold = 64;
SELECT '0000000000000000'::simhash64 % 'ffffffffffffffff' AS d64;
-- out of range and wrong type
SET textfp.hamming_threshold = 65;
SET textfp.hamming_threshold = -1;
SET textfp.hamming_threshold = 'three';
RESET textfp.hamming_threshold;
SHOW textfp.hamming_threshold;
-- the prefix is reserved: misspelt settings are refused
SET textfp.hamming_treshold = 3;
-- a setting of a transaction ends with it
BEGIN;
SET LOCAL textfp.hamming_threshold = 12;
SELECT '0000000000000000'::simhash64 % '0000000000000fff' AS d12;
COMMIT;
SELECT '0000000000000000'::simhash64 % '0000000000000fff' AS d12;
-- % is STABLE because of the setting; hamming_distance and <@ are IMMUTABLE
SELECT proname, provolatile FROM pg_proc
WHERE proname IN ('simhash64_near', 'hamming_distance', 'simhash64_within') ORDER BY 1;
SELECT name, setting, min_val, max_val, boot_val, context FROM pg_settings WHERE name LIKE 'textfp.%';
-- textfp.jaccard_threshold drives the minhash_sig % operator the same way
SHOW textfp.jaccard_threshold;
SET textfp.jaccard_threshold = 0.25;
SELECT 'oph32:k=4:seed=0:pipe=00000000:00000001000000020000000300000004'::minhash_sig %
       'oph32:k=4:seed=0:pipe=00000000:00000001ffffffffffffffffffffffff' AS quarter;
SET textfp.jaccard_threshold = 0.26;
SELECT 'oph32:k=4:seed=0:pipe=00000000:00000001000000020000000300000004'::minhash_sig %
       'oph32:k=4:seed=0:pipe=00000000:00000001ffffffffffffffffffffffff' AS quarter;
SET textfp.jaccard_threshold = 1.01;
SET textfp.jaccard_threshold = -0.01;
SET textfp.jaccard_threshold = 'high';
RESET textfp.jaccard_threshold;
SELECT name, setting, min_val, max_val, boot_val, context FROM pg_settings
WHERE name = 'textfp.jaccard_threshold';
