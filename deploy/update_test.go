package deploy

// This package has no goldens. Importing testref defines its -update flag
// here too, so that `go test ./... -update` runs in every package.
import _ "github.com/pitool/pitool/internal/testref"
