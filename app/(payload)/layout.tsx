/* Payload's admin layout, as its template generates it; its server function answers refusals with their status. */
import config from '@payload-config'
import '@payloadcms/next/css'
// The console's theme over Payload's (contrast, target sizes): after Payload's own styles.
import './custom.css'
import { handleServerFunctions, RootLayout } from '@payloadcms/next/layouts'
import type { ServerFunctionClient } from 'payload'
import React from 'react'

import { importMap } from './admin/importMap.js'
import { answerServerFunction } from './serverFunction'

type Args = { children: React.ReactNode }

const serverFunction: ServerFunctionClient = async function (args) {
  'use server'
  // Refused calls answer 401/403/404, not 500 (./serverFunction).
  return answerServerFunction(args, config, () => handleServerFunctions({ ...args, config, importMap }))
}

const Layout = ({ children }: Args) => (
  <RootLayout config={config} importMap={importMap} serverFunction={serverFunction}>
    {children}
  </RootLayout>
)

export default Layout
