import { answerReferenceRequest } from '../referenceRoute'

export const dynamic = 'force-dynamic'
export const GET = answerReferenceRequest
export const HEAD = answerReferenceRequest
