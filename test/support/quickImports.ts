// Loaded with `--import` before a child process's script (./tsxChild.ts): the hook is in place before Payload loads.
import { resolvePackageImportsQuickly } from '../../src/platform/packageImports'

resolvePackageImportsQuickly()
