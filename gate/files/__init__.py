"""Files in and out, one way each: atomic writes, bounded and strict JSON and YAML reading, files a committed file names, caches on disk, spooled texts, and the strict values every model reads."""
