/**
 * What the local engines accept: any credentials will do, these say where they came from. The
 * local tools' own clients (provisioning, the stream reader, the stand-ins for event source
 * mappings) are given them; the functions' clients find them in the environment instead, as in Lambda.
 */
export const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };
