export { type Column, DataTable } from './data-table.tsx';
export { type Choice, EmailField, PhoneField, SelectField, TextAreaField, TextField } from './forms/fields.tsx';
export { Form, FormActions, FormCard, Notice } from './forms/form-parts.tsx';
export { type BoundField, type FormState, type FormErrors, type FormValues, useForm } from './forms/use-form.ts';
export { ModalDialog } from './modal-dialog.tsx';
export { PageFrame } from './page-frame.tsx';
export { takePageData } from './page-data.ts';
export { remoteLifecycles } from './remote-lifecycles.ts';
export { failureMessage, serverMessageInGerman } from './server-messages.ts';
