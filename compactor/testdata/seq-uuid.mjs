// Preloaded into pi-ref (NODE_OPTIONS=--import) when goldens are regenerated for
// legacy v1 files: Pi gives migrated entries random ids, so randomUUID is made
// a counter and the ids of `pi-ref prepare` and `pi-ref migrate` agree.
import crypto from "node:crypto";
import { syncBuiltinESMExports } from "node:module";
let n = 0;
crypto.randomUUID = () => `${(++n).toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;
syncBuiltinESMExports();
