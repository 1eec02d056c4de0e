/**
 * The API's field messages as a DPO reads them (issue 37, defect 6). The API keeps its own words
 * in error.fields (zod's, for integrators: "Too small: expected string to have >=1 characters");
 * the dashboard says what to do instead. A message the service wrote for people (a missing Board
 * item, a refused delete) is shown as it is. Pure, so it is unit-tested.
 */
const rules: readonly (readonly [RegExp, (...groups: string[]) => string])[] = [
  [/^Too small: expected string to have >=1 characters?$/, () => 'Required: write something here.'],
  [/^Too small: expected string to have >=(\d+) characters$/, (count) => `Write at least ${count} characters.`],
  [/^Too big: expected string to have <=(\d+) characters$/, (count) => `Keep it to ${count} characters or fewer.`],
  [/^Too small: expected array to have >=1 items?$/, () => 'Choose at least one.'],
  [/^Too big: expected array to have <=(\d+) items$/, (count) => `Choose at most ${count}.`],
  [/^Too small: expected number to be >=(\S+)$/, (limit) => `Enter ${limit} or more.`],
  [/^Too small: expected number to be >(\S+)$/, (limit) => `Enter a number above ${limit}.`],
  [/^Too big: expected number to be <=(\S+)$/, (limit) => `Enter ${limit} or less.`],
  [/^Too big: expected number to be <(\S+)$/, (limit) => `Enter a number below ${limit}.`],
  [/^Invalid ISO datetime$/, () => 'Enter a date and time.'],
  [/^Invalid ISO date$/, () => 'Enter a date.'],
  [/^Invalid email( address)?$/, () => 'Enter an email address, such as name@example.com.'],
  [/^Invalid URL$/, () => 'Enter a web address that starts with https://.'],
  [/^Invalid UUID$/, () => 'Choose one from the list.'],
  [/^Invalid input: expected \w+, received undefined$/, () => 'Required: this cannot be left empty.'],
  [/^Invalid input: expected \w+, received \w+$/, () => 'This is not a value this field takes.'],
  [/^Invalid option: expected one of/, () => 'Choose one of the options offered.'],
  [/^(Unrecognized keys?:|Unknown field$)/, () => 'This is not something the form sends: reload the page and try again.'],
];

export const readableProblem = (message: string): string => {
  for (const [pattern, say] of rules) {
    const match = pattern.exec(message);
    if (match) return say(...match.slice(1));
  }
  return message;
};

/** The summary of a refused form: the API's "Request validation failed", said as what to do. */
export const readableFailure = (code: string, message: string): string =>
  code === 'VALIDATION_ERROR' && message === 'Request validation failed' ? 'Some of what you entered needs changing: each field marked says what.' : message;
