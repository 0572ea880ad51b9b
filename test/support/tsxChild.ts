/**
 * How the suite runs a TypeScript file in a process of its own: through tsx, with the package-import
 * hook the production server registers (src/platform/packageImports.ts), so a test server or helper
 * process loads Payload as fast as the real one (~1 s of CPU less a start).
 */
import path from 'node:path'

export const TSX = ['--import', 'tsx', '--import', path.join(import.meta.dirname, 'quickImports.ts')]
