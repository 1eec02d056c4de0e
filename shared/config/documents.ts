import { env } from './env';

/** Printed documents: who prints them as PDF, and where the page printed is asked for. */
export const documentConfig = {
  /**
   * Who prints documents as PDF (shared/documents/pdf.ts): in AWS the document printer function
   * (the scanner's container image, which has Chromium), by name; locally the stack's printer on a
   * loopback port (infra/local/printer.ts).
   */
  get documentPrinterFunction(): string | undefined {
    return env('DOCUMENT_PRINTER_FUNCTION');
  },
  get documentPrinterUrl(): string | undefined {
    return env('DOCUMENT_PRINTER_URL');
  },
  /**
   * Where the documents function asks for the page it prints (shared/documents/printed.ts): in AWS
   * the function of each group whose documents it prints, by name (JSON, group to function name,
   * set by the stack); locally the local API itself (infra/local/server.ts sets it).
   */
  get documentSourceFunctions(): Readonly<Record<string, string>> {
    const names = env('DOCUMENT_SOURCE_FUNCTIONS');
    return names ? (JSON.parse(names) as Record<string, string>) : {};
  },
  get documentSourceUrl(): string | undefined {
    return env('DOCUMENT_SOURCE_URL');
  },
};
