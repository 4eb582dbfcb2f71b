/**
 * GitHub Actions workflow commands (`::error file=…,line=…::message`): `%`, CR and LF escaped
 * as GitHub reads them, and `:` and `,` in a property's value.
 */
export function workflowText(text: string, property = false): string {
  const data = text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  return property ? data.replace(/:/g, '%3A').replace(/,/g, '%2C') : data;
}
